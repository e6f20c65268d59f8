import {
  DisableTwoFactorBodySchema,
  MeSchema,
  RecoveryCodesSchema,
  RequireTwoFactorBodySchema,
  TwoFactorCodeBodySchema,
  TwoFactorEnrolmentSchema,
  TwoFactorProofBodySchema,
  TwoFactorStatusSchema,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { personOf } from '../people/sign-in-service.ts';
import { authedProcedure, type Meta, publicProcedure } from './trpc.ts';

/*
 * Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"). tRPC only (`enabled: false`), for a
 * person signed in with the session cookie; `signIn` finishes a sign-in whose password passed.
 */
const twoFactor = (method: 'GET' | 'POST', path: string): Meta['openapi'] => ({
  method,
  path: `/two-factor/${path}`,
  tags: ['People'],
  enabled: false,
});

export const twoFactorRouter = {
  status: authedProcedure({ openapi: twoFactor('GET', 'status'), success: 200, role: 'viewer', scope: 'session', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}))
    .output(TwoFactorStatusSchema)
    .query(async ({ ctx }) => {
      const { user } = personOf(ctx.caller);
      const status = await ctx.services.twoFactor.status(user.id);
      return { ...status, required_here: await ctx.services.twoFactor.required(ctx.accountId) };
    }),

  enrol: authedProcedure({
    openapi: twoFactor('POST', 'enrol'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(z.strictObject({}))
    .output(TwoFactorEnrolmentSchema)
    .mutation(({ ctx }) => {
      const { user } = personOf(ctx.caller);
      return ctx.services.twoFactor.startEnrolment(user.id, user.email);
    }),

  confirm: authedProcedure({
    openapi: twoFactor('POST', 'confirm'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(TwoFactorCodeBodySchema)
    .output(RecoveryCodesSchema)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.confirmEnrolment(personOf(ctx.caller).user.id, input.code)),

  disable: authedProcedure({
    openapi: twoFactor('POST', 'disable'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(DisableTwoFactorBodySchema)
    .output(z.object({ disabled: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.twoFactor.disable(personOf(ctx.caller).user.id, input);
      return { disabled: true as const };
    }),

  recoveryCodes: authedProcedure({
    openapi: twoFactor('POST', 'recovery-codes'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(TwoFactorProofBodySchema)
    .output(RecoveryCodesSchema)
    .mutation(({ ctx, input }) => ctx.services.twoFactor.newRecoveryCodes(personOf(ctx.caller).user.id, input)),

  /** The second step of a sign-in: the code after the password (the pending sign-in's cookie says whose). */
  signIn: publicProcedure({
    openapi: twoFactor('POST', 'sign-in'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: ['TWO_FACTOR_EXPIRED', 'FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(TwoFactorCodeBodySchema)
    .output(MeSchema)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.web) throw new AppError('FORBIDDEN', 'Sign in through the dashboard');
      const userId = await ctx.services.twoFactor.finishSecondStep(ctx.web, input.code);
      return ctx.services.signIn.startSessionFor(ctx.web, ctx.caller, userId);
    }),

  /** The owner requires two-factor of everyone working in the workspace (having turned it on themselves). */
  require: authedProcedure({
    openapi: twoFactor('POST', 'require'),
    success: 200,
    role: 'owner',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(RequireTwoFactorBodySchema)
    .output(z.object({ required: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const userId = ctx.caller.user?.id;
      if (input.required && userId && !(await ctx.services.twoFactor.isEnabled(userId))) {
        throw new AppError('VALIDATION_ERROR', 'Turn on two-factor sign-in for yourself first', 'required');
      }
      await ctx.services.twoFactor.setRequired(ctx.accountId, input.required);
      return { required: input.required };
    }),
} satisfies TRPCRouterRecord;
