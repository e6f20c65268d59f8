/**
 * Compile-time proof that the client covers the server's router, checked by `pnpm typecheck`
 * (never bundled): a procedure added to the router without a client method, a client method
 * the router no longer has, or a method whose types drift from its procedure's, is an error here.
 */
import type { RouterInputs, RouterOutputs } from '@shortlinks/api';
import type { ShortlinksClient } from './client.ts';
import type { ProcedureScopes } from './scopes.ts';

/** `"links.create" | "links.list" | …`: every procedure path of a nested record. */
type Paths<T> = {
  [K in keyof T & string]: T[K] extends Record<string, unknown> ? `${K}.${keyof T[K] & string}` : never;
}[keyof T & string];

type At<T, P extends string> = P extends `${infer Group}.${infer Name}`
  ? Group extends keyof T
    ? Name extends keyof T[Group]
      ? T[Group][Name]
      : never
    : never
  : never;

/**
 * The dashboard's people procedures (sign-in, sessions, members, the workspace) are its own, made
 * with the session cookie over tRPC (docs/accounts.md): the SDK, which holds a key, has none of them.
 */
type DashboardOnly =
  | `auth.${string}`
  | `members.${string}`
  | `workspace.${string}`
  | `invitations.${string}`
  | `twoFactor.${string}`
  | `connect.${string}`;
type Procedure = Exclude<Paths<RouterInputs>, DashboardOnly>;
type Method = Paths<ShortlinksClient>;

/** Resolves to `true` only when there is nothing in `Extra`; otherwise the offending names show in the error. */
type NoneOf<Extra> = [Extra] extends [never] ? true : { missing: Extra };

export const everyProcedureHasAMethod: NoneOf<Exclude<Procedure, Method>> = true;
export const everyMethodIsAProcedure: NoneOf<Exclude<Method, Procedure>> = true;

/** Every call's scope is listed (scopes.ts), and nothing else is. */
export const everyProcedureHasAScope: NoneOf<Exclude<Procedure, keyof ProcedureScopes>> = true;
export const everyScopeIsAProcedure: NoneOf<Exclude<keyof ProcedureScopes, Procedure>> = true;

/** Each assignable to the other (zod's inferred types are equal in shape but not identical in form). */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** A procedure's result as JSON carries it: tRPC types a void result (a deletion) as never. */
// biome-ignore lint/suspicious/noConfusingVoidType: the client's deletions resolve to void, as their methods say
type OutputOf<P extends Procedure> = [At<RouterOutputs, P>] extends [never] ? void : At<RouterOutputs, P>;

/** What a method resolves to is exactly its procedure's output. */
type ResultDrift = {
  [P in Procedure]: At<ShortlinksClient, P> extends (...args: never[]) => Promise<infer R>
    ? Exactly<R, OutputOf<P>> extends true
      ? never
      : P
    : P;
}[Procedure];
export const everyResultIsTheProcedureOutput: NoneOf<ResultDrift> = true;

/**
 * What a method takes, once an `id` argument is folded into the object, is exactly its
 * procedure's input.
 */
type InputOf<F> = F extends (...args: infer A) => unknown
  ? A extends [string, ...infer Rest]
    ? Rest extends [(infer Q)?]
      ? NonNullable<Q> & { id: string }
      : { id: string }
    : A extends [] | [(infer I)?]
      ? NonNullable<I>
      : never
  : never;
type InputDrift = {
  [P in Procedure]: Exactly<InputOf<At<ShortlinksClient, P>>, At<RouterInputs, P>> extends true ? never : P;
}[Procedure];
export const everyInputIsTheProcedureInput: NoneOf<InputDrift> = true;
