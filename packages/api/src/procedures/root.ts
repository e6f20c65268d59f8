import { auditRouter } from './audit.ts';
import { connectRouter } from './connect.ts';
import type { Context } from './context.ts';
import { domainsRouter } from './domains.ts';
import { invitationsRouter } from './invitations.ts';
import { keysRouter } from './keys.ts';
import { linksRouter } from './links.ts';
import { authRouter, membersRouter, workspaceRouter } from './people.ts';
import { errorShapeOf, proceduresOf } from './router-internals.ts';
import { statsRouter } from './stats.ts';
import { tagsRouter } from './tags.ts';
import { router } from './trpc.ts';
import { twoFactorRouter } from './two-factor.ts';
import { webhooksRouter } from './webhooks.ts';

export const appRouter = router({
  links: linksRouter,
  tags: tagsRouter,
  stats: statsRouter,
  domains: domainsRouter,
  webhooks: webhooksRouter,
  keys: keysRouter,
  auth: authRouter,
  members: membersRouter,
  workspace: workspaceRouter,
  invitations: invitationsRouter,
  twoFactor: twoFactorRouter,
  connect: connectRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;

/**
 * Every procedure by dotted path (`links.get`), read from the router once, when this module is
 * loaded: a tRPC upgrade that changed what is read stops the server here (router-internals.ts).
 */
export const procedures = proceduresOf(appRouter);

/**
 * Calls the procedure at `path` (`links.get`) in-process, for a transport that serves procedures
 * itself (REST, and single tRPC calls: docs/architecture.md): its middlewares, input and output
 * schemas and errors run as on any call. It is what a tRPC caller does, without the caller's proxy
 * built for every request (docs/performance.md, bench:api).
 */
export function callProcedure(path: string, ctx: Context, input: unknown): Promise<unknown> {
  const procedure = procedures.get(path);
  if (!procedure) throw new Error(`No procedure at ${path}`);
  return procedure.call(ctx, input);
}

/** tRPC's error shape (through the router's errorFormatter) of a call that failed, for single tRPC calls. */
export const trpcErrorShape = errorShapeOf(appRouter);
