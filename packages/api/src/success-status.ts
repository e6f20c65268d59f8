import { appRouter } from './root.ts';
import type { Meta } from './trpc.ts';

/**
 * The HTTP status of a successful call of `path` (spec: "Success" column), the same on both
 * transports: 201 for creations, 204 for deletions, and for upsert 201 or 200 by `created`.
 */
export function successStatus(path: string, data: unknown): number {
  if (path === 'links.upsert') return (data as { created?: boolean } | undefined)?.created ? 201 : 200;
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } } | undefined>)[path];
  return procedure?._def.meta?.successStatus ?? 200;
}
