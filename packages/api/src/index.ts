import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './root.ts';

/**
 * The router and what a transport needs of it. The rest of the package has subpaths of its own:
 * `./services` (the domain services), `./errors`, `./redirects`, `./reputation` and `./plans`.
 */
export type { Context } from './context.ts';
export { everyProcedureMeta, procedureMeta, procedureType, successStatus } from './procedure-meta.ts';
export { type AppRouter, appRouter, callProcedure } from './root.ts';
export type { BulkSuccess, Meta, SuccessStatus } from './trpc.ts';

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
