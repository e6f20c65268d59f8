import {
  AcceptInvitationBodySchema,
  CreatedInvitationSchema,
  CreateInvitationBodySchema,
  InvitationOfferSchema,
  InvitationSchema,
  InvitationTokenSchema,
  MeSchema,
  RevokeInvitationBodySchema,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { authedProcedure, type Meta, publicProcedure } from './trpc.ts';

/*
 * Invitations to a workspace (docs/accounts.md, "Invitations"). tRPC only, like the other people
 * procedures (`enabled: false`): made and listed by admins and owners (a key acts with its maker's
 * role, an operator's as an owner), accepted by anyone holding the link.
 */
const invitations = (method: 'GET' | 'POST', path: string): Meta['openapi'] => ({
  method,
  path: `/invitations${path}`,
  tags: ['People'],
  enabled: false,
});

const TOKEN_ERRORS = ['INVITATION_NOT_FOUND', 'INVITATION_ACCEPTED', 'INVITATION_EXPIRED', 'INVITATION_REVOKED'] as const;

export const invitationsRouter = {
  create: authedProcedure({
    openapi: invitations('POST', ''),
    success: 201,
    role: 'admin',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'ALREADY_MEMBER', 'VALIDATION_ERROR'],
  })
    .input(CreateInvitationBodySchema)
    .output(CreatedInvitationSchema)
    .mutation(({ ctx, input }) => ctx.services.invitations.create(ctx.caller, input.email, input.role)),

  list: authedProcedure({ openapi: invitations('GET', ''), success: 200, role: 'admin', scope: 'every-scope', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}))
    .output(z.object({ invitations: z.array(InvitationSchema), mails: z.boolean() }))
    .query(async ({ ctx }) => ({
      invitations: await ctx.services.invitations.listPending(ctx.accountId),
      mails: ctx.services.invitations.mails,
    })),

  revoke: authedProcedure({
    openapi: invitations('POST', '/revoke'),
    success: 200,
    role: 'admin',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(RevokeInvitationBodySchema)
    .output(z.object({ revoked: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.invitations.revoke(ctx.caller, input.id);
      return { revoked: true as const };
    }),

  describe: publicProcedure({
    openapi: invitations('GET', '/offer'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: [...TOKEN_ERRORS, 'VALIDATION_ERROR'],
  })
    .input(InvitationTokenSchema)
    .output(InvitationOfferSchema)
    .query(({ ctx, input }) => ctx.services.invitations.describe(ctx.web, input.token)),

  accept: publicProcedure({
    openapi: invitations('POST', '/accept'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: [...TOKEN_ERRORS, 'INVALID_CREDENTIALS', 'EMAIL_TAKEN', 'FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(AcceptInvitationBodySchema)
    .output(MeSchema)
    .mutation(({ ctx, input }) => {
      if (!ctx.web) throw new AppError('FORBIDDEN', 'Accept an invitation through the dashboard');
      return ctx.services.invitations.accept(ctx.web, ctx.caller, input.token, input.password);
    }),
} satisfies TRPCRouterRecord;
