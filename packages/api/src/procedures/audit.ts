import { AuditLogPageSchema, ListAuditLogQuerySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { authedProcedure } from './trpc.ts';

const tags = ['Audit log'];

/**
 * The audit log (issue #27, docs/accounts.md "The audit log"): who changed what in the workspace,
 * and when. Owners and admins read it; a key needs `audit.read`.
 */
export const auditRouter = {
  list: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/audit-log',
      tags,
      summary: "List the workspace's audit log: one entry per committed change, newest first",
      description:
        'Filter by who acted (`actor_id`: a `usr_` or `key_` id, or `system`), by what changed (`resource_id`), or by `action`. ' +
        '`changes` holds only the fields that changed, each with its value before and after; secrets never appear.',
      protect: true,
    },
    success: 200,
    role: 'admin',
    scope: 'audit.read',
    errors: ['VALIDATION_ERROR'],
  })
    .input(ListAuditLogQuerySchema)
    .output(AuditLogPageSchema)
    .query(({ ctx, input }) => ctx.services.auditLog.list(ctx.accountId, input)),
} satisfies TRPCRouterRecord;
