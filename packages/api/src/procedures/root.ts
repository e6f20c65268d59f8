import type { AnyProcedure } from '@trpc/server';
import type { Context } from './context.ts';
import { linksRouter } from './links.ts';
import { statsRouter } from './stats.ts';
import { tagsRouter } from './tags.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  links: linksRouter,
  tags: tagsRouter,
  stats: statsRouter,
});

export type AppRouter = typeof appRouter;

// At run time, a flat record by dotted path (`links.get`), as procedure-meta.ts reads it too.
const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure | undefined>;

/**
 * Calls the procedure at `path` (`links.get`) in-process, for a transport that serves procedures
 * itself (REST, and single tRPC calls: docs/architecture.md): its middlewares, input and output
 * schemas and errors run as on any call. It is what a tRPC caller does, without the caller's proxy
 * built for every request (docs/performance.md, bench:api).
 */
export function callProcedure(path: string, ctx: Context, input: unknown): Promise<unknown> {
  const procedure = procedures[path];
  if (!procedure) throw new Error(`No procedure at ${path}`);
  return procedure({ path, getRawInput: async () => input, ctx, type: procedure._def.type, signal: undefined, batchIndex: 0 });
}
