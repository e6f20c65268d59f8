import type { AppRouter, RouterInputs, RouterOutputs } from '@shortlinks/api';
import { createTRPCClient, httpLink } from '@trpc/client';
import { refuseNonJsonAnswers, toShortlinksError } from './errors.ts';

export interface ClientOptions {
  /** The server's origin, e.g. `https://links.example.com` (the client adds `/trpc`). */
  baseUrl: string;
  /** An API key (`slk_…`). */
  apiKey: string;
  /** A fetch implementation; defaults to the global one. */
  fetch?: typeof globalThis.fetch;
}

type In = RouterInputs;
type Out = RouterOutputs;

/**
 * The typed Shortlinks client. Inputs and results are the server router's own types, so a
 * misspelt field is a compile error; every failure is a {@link ShortlinksError}.
 */
export function createClient({ baseUrl, apiKey, fetch }: ClientOptions) {
  const trpc = createTRPCClient<AppRouter>({
    links: [
      // One HTTP request per call (no batching), so statuses are those of the REST API.
      httpLink({
        url: `${baseUrl.replace(/\/+$/, '')}/trpc`,
        headers: () => ({ authorization: `Bearer ${apiKey}` }),
        fetch: refuseNonJsonAnswers(fetch ?? ((input, init) => globalThis.fetch(input, init))),
      }),
    ],
  });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toShortlinksError(error);
    }
  };

  return {
    links: {
      create: (input: In['links']['create']): Promise<Out['links']['create']> => call(() => trpc.links.create.mutate(input)),
      upsert: (input: In['links']['upsert']): Promise<Out['links']['upsert']> => call(() => trpc.links.upsert.mutate(input)),
      list: (input: In['links']['list'] = {}): Promise<Out['links']['list']> => call(() => trpc.links.list.query(input)),
      /** By `lnk_` id, or `ext_` + external id (not URL-encoded: tRPC sends it as data). */
      get: (id: string): Promise<Out['links']['get']> => call(() => trpc.links.get.query({ id })),
      update: (input: In['links']['update']): Promise<Out['links']['update']> => call(() => trpc.links.update.mutate(input)),
      delete: (id: string): Promise<void> => call(() => trpc.links.delete.mutate({ id })),
    },
    tags: {
      create: (input: In['tags']['create']): Promise<Out['tags']['create']> => call(() => trpc.tags.create.mutate(input)),
      list: (): Promise<Out['tags']['list']> => call(() => trpc.tags.list.query({})),
      update: (input: In['tags']['update']): Promise<Out['tags']['update']> => call(() => trpc.tags.update.mutate(input)),
      delete: (id: string): Promise<void> => call(() => trpc.tags.delete.mutate({ id })),
    },
    /** Click statistics (docs/statistics.md); every query field is optional. */
    stats: {
      /** By `lnk_` id, or `ext_` + external id (not URL-encoded). */
      link: (id: string, query: Omit<In['stats']['link'], 'id'> = {}): Promise<Out['stats']['link']> =>
        call(() => trpc.stats.link.query({ ...query, id })),
      tag: (id: string, query: Omit<In['stats']['tag'], 'id'> = {}): Promise<Out['stats']['tag']> =>
        call(() => trpc.stats.tag.query({ ...query, id })),
      account: (query: In['stats']['account'] = {}): Promise<Out['stats']['account']> => call(() => trpc.stats.account.query(query)),
    },
  };
}

export type ShortlinksClient = ReturnType<typeof createClient>;
