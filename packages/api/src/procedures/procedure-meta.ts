import type { ProcedureType } from '@trpc/server';
import { procedures } from './root.ts';
import type { InputSchema } from './router-internals.ts';
import { type Meta, successStatusOf } from './trpc.ts';

/** What the procedure at `path` (`links.create`) promises: its REST mapping, success status and errors. */
export function procedureMeta(path: string): Meta | undefined {
  return procedures.get(path)?.meta;
}

/** Every procedure's path and meta, for the OpenAPI document. */
export function everyProcedureMeta(): [path: string, meta: Meta][] {
  return [...procedures.values()].map(({ path, meta }) => [path, meta]);
}

/** The HTTP status of a successful call of `path`, the same on both transports (spec: "Success" column). */
export function successStatus(path: string, result: unknown): number {
  const meta = procedureMeta(path);
  return meta ? successStatusOf(meta, result) : 200;
}

/** Whether the procedure at `path` is a query (tRPC: GET) or a mutation (POST). */
export function procedureType(path: string): ProcedureType | undefined {
  return procedures.get(path)?.type;
}

/**
 * The input schema of the procedure at `path`, as trpc-to-openapi reads it (its `.input()`s
 * merged), for the REST route that reads its query or body.
 */
export function procedureInputSchema(path: string): InputSchema {
  const procedure = procedures.get(path);
  if (!procedure) throw new Error(`No procedure at ${path}`);
  return procedure.inputSchema();
}
