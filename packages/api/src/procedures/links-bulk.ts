import {
  BulkCreateLinksBodySchema,
  BulkCreateResultSchema,
  BulkDeleteLinksQuerySchema,
  BulkDeleteResultSchema,
  BulkUpdateLinksBodySchema,
  BulkUpdateResultSchema,
  LIMITS,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { CREATE_ERRORS, DELETE_ERRORS, UPDATE_ERRORS } from './link-errors.ts';
import { mayCreateTags, refuseNewTagNames } from './tag-creation.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Links'];
const path = '/links/bulk';
const ANSWERS =
  'Each item is done as its single call would do it, in its own transaction, in request order. `results` holds one ' +
  'entry per item, in order: the link, or the status and error body the single call would have answered. ' +
  'The status says how many were done: all, some (207) or none (422, with the same body). A request that is not ' +
  'a bulk request at all (not an object, no items, more than 100) gets the usual error body and does nothing.';

/** POST, PATCH and DELETE /links/bulk (issue #14), spread into the links router. */
export const linksBulkRouter = {
  bulkCreate: authedProcedure({
    openapi: { method: 'POST', path, tags, summary: `Create 1 to ${LIMITS.bulkItems} links`, description: ANSWERS, protect: true },
    success: { bulk: 201, itemErrors: [...CREATE_ERRORS, 'FORBIDDEN'] },
    role: 'member',
    scope: 'links.write',
    errors: ['VALIDATION_ERROR'],
    errorExamples: { VALIDATION_ERROR: { message: `links must hold 1 to ${LIMITS.bulkItems} items`, field: 'links' } },
    bodyItems: LIMITS.bulkItems,
    items: 'links',
  })
    .input(BulkCreateLinksBodySchema)
    .output(BulkCreateResultSchema)
    .mutation(async ({ ctx, input }) => {
      const names = input.links.flatMap((item) => (item.ok ? (item.value.tag_names ?? []) : []));
      await refuseNewTagNames(ctx, ctx.accountId, names);
      return ctx.services.linksBulk.create(ctx.accountId, input, mayCreateTags(ctx));
    }),

  bulkUpdate: authedProcedure({
    openapi: {
      method: 'PATCH',
      path,
      tags,
      summary: `Apply one change to 1 to ${LIMITS.bulkItems} links`,
      description: `${ANSWERS} \`changes\` follows the rules of PATCH /links/{id}; a change that breaks them by its form refuses the whole request.`,
      protect: true,
    },
    success: { bulk: 200, itemErrors: [...UPDATE_ERRORS, 'FORBIDDEN'] },
    role: 'member',
    scope: 'links.write',
    errors: ['VALIDATION_ERROR'],
    errorExamples: { VALIDATION_ERROR: { message: 'ids[2] repeats ids[0]: name each link once', field: 'ids' } },
    bodyItems: LIMITS.bulkItems,
    items: 'ids',
  })
    .input(BulkUpdateLinksBodySchema)
    .output(BulkUpdateResultSchema)
    .mutation(async ({ ctx, input }) => {
      await refuseNewTagNames(ctx, ctx.accountId, input.changes.tag_names ?? []);
      return ctx.services.linksBulk.update(ctx.accountId, input, mayCreateTags(ctx));
    }),

  bulkDelete: authedProcedure({
    openapi: {
      method: 'DELETE',
      path,
      tags,
      summary: `Delete 1 to ${LIMITS.bulkItems} links`,
      description: `${ANSWERS} \`ids\` is comma-separated; an external id holding a comma goes in a repeated \`ids=\`, never split (\`ids=ext_a%2Cb&ids=\` names it alone).`,
      protect: true,
    },
    success: { bulk: 200, itemErrors: DELETE_ERRORS },
    role: 'member',
    scope: 'links.write',
    errors: ['VALIDATION_ERROR'],
    errorExamples: { VALIDATION_ERROR: { message: 'ids[1] names the same link as ids[0]: name each link once', field: 'ids' } },
    items: 'ids',
  })
    .input(BulkDeleteLinksQuerySchema)
    .output(BulkDeleteResultSchema)
    .mutation(({ ctx, input }) => ctx.services.linksBulk.delete(ctx.accountId, input)),
} satisfies TRPCRouterRecord;
