import { type ErrorCode, type ErrorExample, SCOPES, type Scope, scopeGranted } from '@shortlinks/contract';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { actingAs, actorOf } from '../audit/acting.ts';
import { AppError, toAppError, toTRPCError } from '../errors.ts';
import { aRole, type Role, roleAtLeast } from '../people/roles.ts';
import type { Context } from './context.ts';

/**
 * How a success answers (spec: "Success" column): its HTTP status, or `createdOrFound` for a call
 * that answers 201 when its result says `created`, 200 when it found what it was asked for, or
 * `{ bulk }` for a bulk call, which answers from its per-item results: `bulk` (201 or 200) when
 * every item was done, 207 when some were, 422 when none was (docs/api-decisions.md).
 */
export type SuccessStatus = 200 | 201 | 204 | 'createdOrFound' | BulkSuccess;

/** A bulk call's success: its status when every item was done, and the errors an item may get. */
export interface BulkSuccess {
  bulk: 200 | 201;
  itemErrors: readonly ErrorCode[];
}

/** What an API key needs to call a procedure: see {@link Meta.scope}. */
export type ProcedureScope = Scope | 'session' | 'every-scope' | 'anyone';

/** The status of a bulk call whose items were all done, some, or none. */
const BULK_SOME_DONE = 207;
const BULK_NONE_DONE = 422;

/**
 * What a procedure promises, in its own meta: its REST mapping, the status of a success, and the
 * errors it answers beyond those every operation may (UNAUTHORIZED, RATE_LIMITED, and for a body
 * INVALID_JSON, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE). All three are required: a procedure
 * can only be made through {@link authedProcedure}, which takes them, so one added without them
 * does not compile. The OpenAPI document and both transports read them from here.
 */
export interface Meta extends OpenApiMeta {
  openapi: NonNullable<OpenApiMeta['openapi']>;
  success: SuccessStatus;
  errors: readonly ErrorCode[];
  /**
   * The least role in the workspace that may call it (docs/accounts.md, "Roles"), checked by the
   * server on both transports before the procedure runs: a lower role gets 403 FORBIDDEN and
   * nothing changes. `anyone` needs no caller at all (signing in). Required: a procedure without
   * it does not compile.
   */
  role: Role | 'anyone';
  /**
   * What an API key needs to call it (docs/accounts.md, "Keys and scopes"), checked on both
   * transports before the procedure runs: a key without it gets 403 FORBIDDEN `This key lacks the
   * scope links.write` and nothing changes. A session (a person) is governed by `role` alone.
   * Required beside `role`: a procedure without it does not compile.
   * - a {@link Scope}: a key holding it (or its `.write`, for a `.read`);
   * - `session`: only a person signed in to the dashboard (signing out, two-factor, one's
   *   sessions): every key is refused;
   * - `every-scope`: managing people and the workspace, which no scope names: only a key holding
   *   every scope (the operator's, and those made before scopes) within its role;
   * - `anyone`: needs no caller (signing in, a one-time link), with `role: 'anyone'`.
   */
  scope: ProcedureScope;
  /** The OpenAPI document's example of an error, where the code's own would not fit this operation. */
  errorExamples?: Partial<Record<ErrorCode, ErrorExample>>;
  /**
   * A body that holds up to this many link bodies (a bulk call): both transports take a body this
   * many times (plus one) the usual size here, and only here.
   */
  bodyItems?: number;
  /**
   * The input's list of items (a bulk call's `links` or `ids`): the call spends its key's rate
   * limit in proportion to them (call-weight.ts).
   */
  items?: 'links' | 'ids';
  /**
   * The input's field holding a file's text (an import): REST takes the file as the raw body into
   * it, both transports take a body as large as the server's import cap (and no larger), and the
   * call spends its key's rate limit by the file's size (call-weight.ts).
   */
  file?: 'file';
  /**
   * The result is a file streamed in chunks of text (an async iterable), which REST answers as
   * the file itself: trpc-to-openapi cannot, so its mapping is disabled and the server serves it.
   */
  streamed?: true;
  /**
   * The result is an image (`{ content_type, data }`: SVG text or PNG in base64), which REST
   * answers as the image itself: trpc-to-openapi cannot, so its mapping is disabled and the server
   * serves it (GET /links/{id}/qr).
   */
  image?: true;
}

// tRPC's meta type must stay optional-shaped for trpc-to-openapi; the builder below requires it.
const t = initTRPC
  .context<Context>()
  .meta<OpenApiMeta & Partial<Meta>>()
  .create({
    // tRPC answers carry the app's code, message, field and status in `data` (ErrorData in the
    // contract), which the client reads; REST answers the same error as its body.
    errorFormatter({ shape, error, input }) {
      const app = toAppError(error, input);
      return { ...shape, message: app.message, data: { ...shape.data, ...app.toData(), stack: undefined } };
    },
  });

export const router = t.router;

/**
 * Needs `Authorization: Bearer <API key>`: the transport found the caller; this only checks there is
 * one. Domain errors the procedure throws become TRPCErrors whose code carries the spec's HTTP
 * status. One middleware for both: each one a call passes through costs a GET measurably
 * (docs/performance.md, bench:api).
 */
const authed = t.procedure.use(async ({ ctx, meta, next, path }) => {
  const { caller } = ctx;
  if (!caller) throw toTRPCError(new AppError('UNAUTHORIZED'));
  const scope = meta?.scope;
  // A key is held to its scopes first, so it hears what it lacks; a session to its role alone.
  if (caller.scopes !== null) {
    const lacking = scopeLacking(caller.scopes, scope);
    if (lacking !== undefined) throw toTRPCError(new AppError('FORBIDDEN', lacking));
  }
  const needed = meta?.role;
  // A procedure made by authedProcedure always has a role; none here would be a bug, so refuse.
  if (needed === undefined || (needed !== 'anyone' && !roleAtLeast(caller.role, needed))) {
    throw toTRPCError(new AppError('FORBIDDEN', refusal(caller.role, needed)));
  }
  // The workspace requires two-factor: until they turn it on, a person may only sign out and enrol.
  if (caller.twoFactorMissing && !/^(auth|twoFactor)\./.test(path)) throw toTRPCError(new AppError('TWO_FACTOR_ENROLMENT_REQUIRED'));
  // tRPC merges what `next` is given into the context.
  const result = await next({ ctx: { accountId: caller.accountId, caller } });
  if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
  return result;
});

/**
 * A mutation may have changed the account's links, even one that failed (a commit whose answer was
 * lost): once it is answered, this process forgets those it keeps, so the caller reads its own
 * writes; other processes hear it announced (cache-coherence.ts). Only procedures that REST maps
 * to a writing method pass through it, so a GET still passes through one middleware.
 *
 * It runs as its caller (audit/acting.ts): every change it makes is written to the audit log under
 * the key's or the person's name, with the request's address. Only here, not for reads: see why
 * in acting.ts.
 */
const writing = authed.use(async ({ ctx, next, type }) => {
  const result = await actingAs(actorOf(ctx.caller), ctx.ip ?? null, () => next());
  if (type === 'mutation') ctx.services.coherence.accountLinksChanged(ctx.accountId);
  return result;
});

/**
 * A procedure of the API, from what it promises: every procedure starts here. A mutation is mapped
 * to POST, PUT, PATCH or DELETE (mutations.test.ts), so it is built on {@link writing}.
 */
export const authedProcedure = (meta: Meta) => (meta.openapi.method === 'GET' ? authed : writing).meta(meta);

/**
 * A procedure that needs no caller (signing in, a one-time link): its own checks stand in for the
 * caller's, and it runs for anyone. Its meta says `role: 'anyone'`.
 */
export const publicProcedure = (meta: Meta & { role: 'anyone'; scope: 'anyone' }) =>
  t.procedure
    .use(async ({ next }) => {
      const result = await next();
      if (!result.ok && result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
      return result;
    })
    .meta(meta);

/** Why a key holding `held` is refused a procedure that needs `scope`, or undefined when it may call it. */
export function scopeLacking(held: readonly Scope[], scope: ProcedureScope | undefined): string | undefined {
  if (scope === undefined) return 'This cannot be called';
  if (scope === 'anyone') return undefined;
  if (scope === 'session') return 'Only a person signed in to the dashboard can do this; an API key cannot';
  if (scope === 'every-scope') {
    const missing = SCOPES.find((one) => !held.includes(one));
    return missing === undefined ? undefined : `This key lacks the scope ${missing}; managing people needs a key with every scope`;
  }
  return scopeGranted(held, scope) ? undefined : `This key lacks the scope ${scope}`;
}

/** Why a caller of `role` is refused a procedure that needs `needed`. */
function refusal(role: Role, needed: Role | 'anyone' | undefined): string {
  if (needed === undefined || needed === 'anyone') return 'This cannot be called';
  const capital = aRole(role).charAt(0).toUpperCase() + aRole(role).slice(1);
  return `${capital} cannot do this; it needs the role ${needed}${needed === 'owner' ? '' : ' or above'}`;
}

/** The HTTP status of a success of a procedure with this meta, given its result. */
export function successStatusOf(meta: Pick<Meta, 'success'>, result: unknown): number {
  const { success } = meta;
  if (typeof success === 'object') {
    const { succeeded = 0, failed = 0 } = (result ?? {}) as { succeeded?: number; failed?: number };
    if (failed === 0) return success.bulk;
    return succeeded > 0 ? BULK_SOME_DONE : BULK_NONE_DONE;
  }
  if (success !== 'createdOrFound') return success;
  return (result as { created?: boolean } | undefined)?.created ? 201 : 200;
}
