import { type AnyProcedure, type AnyRouter, getErrorShape, type ProcedureType, type TRPCError } from '@trpc/server';
import { getInputOutputParsers } from 'trpc-to-openapi';
import type { Context } from './context.ts';
import type { Meta } from './trpc.ts';

/**
 * The one place that reads tRPC's internals (`_def`), so a tRPC upgrade that changes them breaks
 * here and nowhere else. They are read because the server answers single tRPC calls and every
 * REST call on a Fastify route of each procedure's own, calling the procedure in-process: tRPC's
 * and trpc-to-openapi's adapters build a fetch Request and an AbortSignal per call, and tRPC's
 * caller a proxy, which cost more than a GET's database read (docs/performance.md, bench:api).
 *
 * An upgrade that changes what is read here fails in one of two ways, never silently:
 *   - to compile: every field is read through tRPC's own types (`AnyRouter['_def']`,
 *     `AnyProcedure['_def']`, a procedure's call options), with no cast around them;
 *   - at start: `proceduresOf` checks every procedure's shape when the router is assembled
 *     (root.ts), so the server does not start on internals it would misread
 *     (router-internals.test.ts).
 */

/** A procedure as the transports use it, read from tRPC's internals once, at start. */
export interface RouterProcedure {
  /** Its dotted path, `links.get`. */
  readonly path: string;
  /** tRPC's GET (query) or POST (mutation); subscriptions are tRPC's adapter's alone. */
  readonly type: ProcedureType;
  /** What it promises: its REST mapping, success status and errors (authedProcedure's meta). */
  readonly meta: Meta;
  /**
   * Runs it in-process with its middlewares, input and output schemas and errors, as a tRPC
   * caller would, without the caller's proxy built per request.
   */
  call(ctx: Context, input: unknown): Promise<unknown>;
  /** Its input schema, merged from its `.input()`s the way trpc-to-openapi merges them for REST. */
  inputSchema(): InputSchema;
}

export type InputSchema = ReturnType<typeof getInputOutputParsers>['inputParser'];

/** Where a call that failed was made, for tRPC's error shape. */
export interface FailedCall {
  ctx: Context;
  input: unknown;
  path: string;
  type: ProcedureType;
}

/**
 * Every procedure of `router` by dotted path, checked: each must be a tRPC 11 procedure (a
 * function whose `_def` has a `type`, an `inputs` list and our whole meta), or this throws,
 * naming the procedure and what it lacks.
 */
export function proceduresOf(router: AnyRouter): ReadonlyMap<string, RouterProcedure> {
  // Typed as the nested record of routers, but flat by dotted path at run time (tRPC 11).
  const flat: unknown = router._def.procedures;
  if (typeof flat !== 'object' || flat === null) throw internalsChanged('the router has no `_def.procedures`');
  const procedures = new Map<string, RouterProcedure>();
  for (const [path, value] of Object.entries(flat)) procedures.set(path, readProcedure(path, value));
  if (procedures.size === 0) throw internalsChanged('the router has no procedures in `_def.procedures`');
  return procedures;
}

function readProcedure(path: string, value: unknown): RouterProcedure {
  if (!isProcedure(value)) throw internalsChanged(`\`${path}\` is not a procedure with a \`_def\``);
  const { type, meta, inputs } = value._def;
  if (type !== 'query' && type !== 'mutation' && type !== 'subscription') {
    throw internalsChanged(`\`${path}\` has no \`_def.type\` (query, mutation or subscription)`);
  }
  if (!isMeta(meta)) throw internalsChanged(`\`${path}\` has no \`_def.meta\` with openapi, success and errors`);
  if (!Array.isArray(inputs)) throw internalsChanged(`\`${path}\` has no \`_def.inputs\``);
  const procedure = value;
  return {
    path,
    type,
    meta,
    call: (ctx, input) => procedure({ path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 }),
    inputSchema: () => getInputOutputParsers(procedure).inputParser,
  };
}

/**
 * tRPC's error shape of a failed call (the router's errorFormatter applied to tRPC's default
 * shape), as its own adapter writes it, for the single calls the server answers itself. It needs
 * the router's config, which only `_def._config` holds.
 */
export function errorShapeOf(router: AnyRouter): (error: TRPCError, call: FailedCall) => unknown {
  const config = router._def._config;
  if (typeof config?.errorFormatter !== 'function') throw internalsChanged('the router has no `_def._config.errorFormatter`');
  return (error, { ctx, input, path, type }) => getErrorShape({ config, error, ctx, input, path, type });
}

function isProcedure(value: unknown): value is AnyProcedure {
  return typeof value === 'function' && typeof (value as Partial<AnyProcedure>)._def === 'object';
}

// Every procedure is made by authedProcedure(meta), which takes a whole Meta.
function isMeta(meta: unknown): meta is Meta {
  if (typeof meta !== 'object' || meta === null) return false;
  const { openapi, success, errors, role, scope } = meta as Partial<Meta>;
  return (
    typeof openapi === 'object' && success !== undefined && Array.isArray(errors) && typeof role === 'string' && typeof scope === 'string'
  );
}

function internalsChanged(what: string): Error {
  return new Error(`tRPC's router internals are not what packages/api/src/procedures/router-internals.ts reads: ${what}`);
}
