import { ApiKeyListSchema, ApiKeyRefSchema, CreateKeyBodySchema, NewApiKeySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

const tags = ['Keys'];
const keyRef = z.strictObject({ id: ApiKeyRefSchema });

/**
 * API keys made over the API (issue #27, docs/accounts.md "Keys and scopes"). Every role may make
 * keys for itself, within its role (a viewer, read-only ones); a key needs `keys.write` and never
 * gives a scope it lacks.
 */
export const keysRouter = {
  create: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/keys',
      tags,
      summary: 'Make an API key with scopes',
      description: 'The key itself (`key`) is in this answer only. A scope the caller may not give is refused with 403 FORBIDDEN.',
      protect: true,
      successDescription: 'The new key, with its secret',
    },
    success: 201,
    role: 'viewer',
    scope: 'keys.write',
    errors: ['VALIDATION_ERROR'],
    errorExamples: { VALIDATION_ERROR: { message: 'scopes: unknown scope "links.all"', field: 'scopes' } },
  })
    .input(CreateKeyBodySchema)
    .output(NewApiKeySchema)
    .mutation(({ ctx, input }) => ctx.services.keys.create(ctx.caller as NonNullable<typeof ctx.caller>, input)),

  list: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/keys',
      tags,
      summary: "List the live keys you may manage: an owner's or an admin's, every key of the workspace; anyone else's, their own",
      protect: true,
    },
    success: 200,
    role: 'viewer',
    scope: 'keys.write',
    errors: [],
  })
    .input(z.strictObject({}))
    .output(ApiKeyListSchema)
    .query(async ({ ctx }) => ({ keys: await ctx.services.keys.list(ctx.caller as NonNullable<typeof ctx.caller>) })),

  revoke: authedProcedure({
    openapi: {
      method: 'DELETE',
      path: '/keys/{id}',
      tags,
      summary: 'Revoke a key: it stops working at once, on every instance',
      protect: true,
      successDescription: 'Revoked',
    },
    success: 204,
    role: 'viewer',
    scope: 'keys.write',
    errors: ['KEY_NOT_FOUND'],
  })
    .input(keyRef)
    .output(z.void())
    .mutation(({ ctx, input }) => ctx.services.keys.revoke(ctx.caller as NonNullable<typeof ctx.caller>, pathParam('key', input.id))),
} satisfies TRPCRouterRecord;
