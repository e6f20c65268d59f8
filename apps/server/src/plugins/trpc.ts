import { appRouter, type Services, successStatus, toAppError } from '@shortlinks/api';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';

export const TRPC_PREFIX = '/trpc';

/** Typed tRPC at /trpc, answering with the same HTTP statuses as REST (but 200 for 204). */
export async function trpcPlugin(app: FastifyInstance, { services }: { services: Services }) {
  await app.register(fastifyTRPCPlugin, {
    prefix: TRPC_PREFIX,
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }: { req: { headers: Record<string, string | string[] | undefined> } }) => ({
        services,
        transport: 'trpc' as const,
        authorization: typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined,
      }),
      responseMeta: ({ paths, data, errors }: { paths?: readonly string[]; data: readonly unknown[]; errors: readonly unknown[] }) => {
        // Batched calls keep tRPC's own status; a single call answers like its REST twin.
        if (paths?.length !== 1) return {};
        if (errors.length > 0) return { status: toAppError(errors[0]).status };
        const result = data[0] as { result?: { data?: unknown } } | undefined;
        const status = successStatus(paths[0] ?? '', result?.result?.data);
        // A tRPC response always carries its JSON envelope, which a 204 cannot: deletions answer 200.
        return { status: status === 204 ? 200 : status };
      },
      onError: ({ error }: { error: unknown }) => {
        if (toAppError(error).status >= 500) app.log.error({ err: error }, 'procedure failed');
      },
    },
  });
}
