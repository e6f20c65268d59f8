import { appRouter } from './root.ts';
import { type Meta, successStatusOf } from './trpc.ts';

// Every procedure is made by authedProcedure(meta), so each carries a whole Meta.
const procedures = appRouter._def.procedures as unknown as Record<
  string,
  { _def: { meta?: Meta; type: 'query' | 'mutation' | 'subscription' } } | undefined
>;

/** What the procedure at `path` (`links.create`) promises: its REST mapping, success status and errors. */
export function procedureMeta(path: string): Meta | undefined {
  return procedures[path]?._def.meta;
}

/** Every procedure's path and meta, for the OpenAPI document. */
export function everyProcedureMeta(): [path: string, meta: Meta][] {
  return Object.entries(procedures).flatMap(([path, procedure]) =>
    procedure?._def.meta ? [[path, procedure._def.meta] as [string, Meta]] : [],
  );
}

/** The HTTP status of a successful call of `path`, the same on both transports (spec: "Success" column). */
export function successStatus(path: string, result: unknown): number {
  const meta = procedureMeta(path);
  return meta ? successStatusOf(meta, result) : 200;
}

/** Whether the procedure at `path` is a query (tRPC: GET) or a mutation (POST). */
export function procedureType(path: string): 'query' | 'mutation' | 'subscription' | undefined {
  return procedures[path]?._def.type;
}
