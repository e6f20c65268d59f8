import {
  ChangePasswordBodySchema,
  ChangeRoleBodySchema,
  DeleteWorkspaceBodySchema,
  EndSessionBodySchema,
  MemberSchema,
  MeSchema,
  PasswordLinkQuerySchema,
  PasswordLinkSchema,
  RemoveMemberBodySchema,
  RenameWorkspaceBodySchema,
  SessionSchema,
  SignInBodySchema,
  SwitchWorkspaceBodySchema,
  UsePasswordLinkBodySchema,
} from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { WebExchange } from '../people/sign-in-attempts.ts';
import { personOf } from '../people/sign-in-service.ts';
import type { Context } from './context.ts';
import { authedProcedure, type Meta, publicProcedure } from './trpc.ts';

/*
 * The dashboard's people procedures (docs/accounts.md). They are tRPC only (`enabled: false`: no
 * REST route, not in the OpenAPI document): they sign a browser in and out with the session
 * cookie, which `/api/v1` never accepts. Members and the workspace can be managed with a key too
 * (an operator's key acts as an owner), over tRPC.
 */
const auth = (method: 'GET' | 'POST', path: string): Meta['openapi'] => ({
  method,
  path: `/auth/${path}`,
  tags: ['People'],
  enabled: false,
});

/** The HTTP exchange a sign-in needs to set its cookie: tRPC gives it; nothing else signs in. */
function webOf(ctx: Context): WebExchange {
  if (!ctx.web) throw new AppError('FORBIDDEN', 'Sign in through the dashboard');
  return ctx.web;
}

export const authRouter = {
  signIn: publicProcedure({
    openapi: auth('POST', 'sign-in'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: ['INVALID_CREDENTIALS', 'FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(SignInBodySchema)
    .output(MeSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.signIn(webOf(ctx), ctx.caller, input.email, input.password)),

  passwordLink: publicProcedure({
    openapi: auth('GET', 'password-link'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: ['ONE_TIME_LINK_INVALID', 'VALIDATION_ERROR'],
  })
    .input(PasswordLinkQuerySchema)
    .output(PasswordLinkSchema)
    .query(({ ctx, input }) => ctx.services.passwordLinks.describe(input.token)),

  usePasswordLink: publicProcedure({
    openapi: auth('POST', 'password-link'),
    success: 200,
    role: 'anyone',
    scope: 'anyone',
    errors: ['ONE_TIME_LINK_INVALID', 'EMAIL_TAKEN', 'FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(UsePasswordLinkBodySchema)
    .output(MeSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.usePasswordLink(webOf(ctx), ctx.caller, input.token, input.password, input.email)),

  me: authedProcedure({ openapi: auth('GET', 'me'), success: 200, role: 'viewer', scope: 'session', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}))
    .output(MeSchema)
    .query(({ ctx }) => ctx.services.signIn.me(ctx.caller)),

  signOut: authedProcedure({ openapi: auth('POST', 'sign-out'), success: 200, role: 'viewer', scope: 'session', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}))
    .output(z.object({ signed_out: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      await ctx.services.signIn.signOut(ctx.web, ctx.caller);
      return { signed_out: true as const };
    }),

  signOutEverywhere: authedProcedure({
    openapi: auth('POST', 'sign-out-everywhere'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN'],
  })
    .input(z.strictObject({}))
    .output(z.object({ signed_out: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      await ctx.services.signIn.signOutEverywhere(ctx.web, ctx.caller);
      return { signed_out: true as const };
    }),

  sessions: authedProcedure({ openapi: auth('GET', 'sessions'), success: 200, role: 'viewer', scope: 'session', errors: ['FORBIDDEN'] })
    .input(z.strictObject({}))
    .output(z.array(SessionSchema))
    .query(({ ctx }) => {
      const { user, session } = personOf(ctx.caller);
      return ctx.services.sessions.list(user.id, session.id);
    }),

  endSession: authedProcedure({
    openapi: auth('POST', 'end-session'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'NOT_FOUND'],
  })
    .input(EndSessionBodySchema)
    .output(z.object({ ended: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const { user, session } = personOf(ctx.caller);
      if (!(await ctx.services.sessions.end(user.id, input.id))) throw new AppError('NOT_FOUND', 'You have no such live session');
      if (input.id === session.id) ctx.web?.clearSessionCookie();
      return { ended: true as const };
    }),

  changePassword: authedProcedure({
    openapi: auth('POST', 'change-password'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(ChangePasswordBodySchema)
    .output(z.object({ changed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const { user, session } = personOf(ctx.caller);
      await ctx.services.users.changePassword(user.id, input.current_password, input.new_password, session.id);
      return { changed: true as const };
    }),

  switchWorkspace: authedProcedure({
    openapi: auth('POST', 'switch-workspace'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(SwitchWorkspaceBodySchema)
    .output(MeSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.switchWorkspace(ctx.caller, input.workspace_id)),
} satisfies TRPCRouterRecord;

const members = (method: 'GET' | 'POST', path: string): Meta['openapi'] => ({
  method,
  path: `/members${path}`,
  tags: ['People'],
  enabled: false,
});

export const membersRouter = {
  list: authedProcedure({ openapi: members('GET', ''), success: 200, role: 'viewer', scope: 'every-scope', errors: [] })
    .input(z.strictObject({}))
    .output(z.array(MemberSchema))
    .query(({ ctx }) => ctx.services.members.list(ctx.accountId)),

  changeRole: authedProcedure({
    openapi: members('POST', '/role'),
    success: 200,
    role: 'admin',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'LAST_OWNER', 'NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(ChangeRoleBodySchema)
    .output(MemberSchema)
    .mutation(({ ctx, input }) => ctx.services.members.changeRole(ctx.caller, input.user_id, input.role)),

  remove: authedProcedure({
    openapi: members('POST', '/remove'),
    success: 200,
    role: 'admin',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'LAST_OWNER', 'NOT_FOUND', 'VALIDATION_ERROR'],
  })
    .input(RemoveMemberBodySchema)
    .output(z.object({ removed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.members.remove(ctx.caller, input.user_id);
      return { removed: true as const };
    }),

  leave: authedProcedure({
    openapi: members('POST', '/leave'),
    success: 200,
    role: 'viewer',
    scope: 'session',

    errors: ['FORBIDDEN', 'LAST_OWNER'],
  })
    .input(z.strictObject({}))
    .output(z.object({ left: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      await ctx.services.members.leave(ctx.caller);
      ctx.web?.clearSessionCookie();
      return { left: true as const };
    }),
} satisfies TRPCRouterRecord;

const workspace = (path: string): Meta['openapi'] => ({ method: 'POST', path: `/workspace/${path}`, tags: ['People'], enabled: false });

export const workspaceRouter = {
  rename: authedProcedure({
    openapi: workspace('rename'),
    success: 200,
    role: 'owner',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(RenameWorkspaceBodySchema)
    .output(z.object({ id: z.string(), name: z.string() }))
    .mutation(({ ctx, input }) => ctx.services.members.rename(ctx.accountId, input.name)),

  delete: authedProcedure({
    openapi: workspace('delete'),
    success: 200,
    role: 'owner',
    scope: 'every-scope',
    errors: ['FORBIDDEN', 'VALIDATION_ERROR'],
  })
    .input(DeleteWorkspaceBodySchema)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await ctx.services.members.deleteWorkspace(ctx.accountId, input.confirm_name);
      return { deleted: true as const };
    }),
} satisfies TRPCRouterRecord;
