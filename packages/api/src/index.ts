import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './procedures/root.ts';

/**
 * The router and what a transport needs of it. The rest of the package has subpaths of its own:
 * `./services` (the domain services), `./errors`, `./redirects`, `./destinations` (reputation sources) and `./plans`.
 * What a transport needs of tRPC's internals is read in procedures/router-internals.ts only.
 */
export { callWeight, ITEMS_PER_UNIT, type ProcedureCall, requestWeight } from './procedures/call-weight.ts';
export type { Context } from './procedures/context.ts';
export {
  everyProcedureMeta,
  procedureInputSchema,
  procedureMeta,
  procedureType,
  successStatus,
} from './procedures/procedure-meta.ts';
export { type AppRouter, appRouter, callProcedure, trpcErrorShape } from './procedures/root.ts';
export type { BulkSuccess, Meta, SuccessStatus } from './procedures/trpc.ts';

export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
