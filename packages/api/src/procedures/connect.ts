import { ConnectAnswerBodySchema, ConnectClaimBodySchema, ConnectClaimSchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import type { Meta } from './trpc.ts';
import { authedProcedure, publicProcedure } from './trpc.ts';

/*
 * Connect (docs/accounts.md, "Connect"): the dashboard's approval of a client's request for a key,
 * and the client's claim. tRPC only (`enabled: false`): the person answers with the session cookie
 * (a write: same origin and the CSRF token), the client claims with no credential but its verifier.
 */
const connect = (path: string): Meta['openapi'] => ({ method: 'POST', path: `/connect/${path}`, tags: ['People'], enabled: false });

export const connectRouter = {
  approve: authedProcedure({
    openapi: connect('approve'),
    success: 200,
    role: 'viewer',
    scope: 'session',
    errors: ['FORBIDDEN', 'CONNECT_ALREADY_ANSWERED', 'VALIDATION_ERROR'],
  })
    .input(ConnectAnswerBodySchema)
    .output(z.object({ approved: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.connect.answer(ctx.caller as NonNullable<typeof ctx.caller>, input.challenge, input.client, true);
      return { approved: true as const };
    }),

  decline: authedProcedure({
    openapi: connect('decline'),
    success: 200,
    role: 'viewer',
    scope: 'session',
    errors: ['FORBIDDEN', 'CONNECT_ALREADY_ANSWERED', 'VALIDATION_ERROR'],
  })
    .input(ConnectAnswerBodySchema)
    .output(z.object({ declined: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.connect.answer(ctx.caller as NonNullable<typeof ctx.caller>, input.challenge, input.client, false);
      return { declined: true as const };
    }),

  /** The client's poll: no caller, only the verifier; rate-limited by address like any keyless call. */
  claim: publicProcedure({ openapi: connect('claim'), success: 200, role: 'anyone', scope: 'anyone', errors: ['VALIDATION_ERROR'] })
    .input(ConnectClaimBodySchema)
    .output(ConnectClaimSchema)
    .mutation(({ ctx, input }) => ctx.services.connect.claim(input.verifier, ctx.ip ?? null)),
} satisfies TRPCRouterRecord;
