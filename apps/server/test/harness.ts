import { createLink, type TestAccount, type TestServer, testServers } from '@shortlinks/testing';
import { buildServer } from '../src/build-server.ts';
import { waitFor } from './processes.ts';

/**
 * The server's tests run against the real server built by `buildServer`, through the shared
 * harness (@shortlinks/testing): a database of its own, a random loopback port.
 */
export * from '@shortlinks/testing';

export const startTestServer = testServers(buildServer);

/**
 * Creates a link at `body.slug` and returns once each of `servers` has heard the create's
 * announcement and caches where the link redirects.
 *
 * The announcement reaches a server's change listener a moment after the create has answered: a
 * visit looked up meanwhile is not cached (its answer may predate the change), and one cached just
 * before it arrives is forgotten when it does. So each server first caches the slug as free, and
 * the announcement has been heard once that entry is gone. The visits send no browser User-Agent,
 * so none counts as a click.
 */
export async function createCachedLink(account: TestAccount, servers: TestServer[], body: Record<string, unknown> & { slug: string }) {
  const visit = (server: TestServer) => fetch(`${server.origin}/${body.slug}`, { redirect: 'manual' });
  const cached = (server: TestServer) => server.services.redirects.cache.get(body.slug) !== undefined;
  for (const server of servers) {
    await waitFor(async () => (await visit(server)).status === 404 && cached(server), 5_000, `${body.slug} to be cached as free`);
  }
  const link = await createLink(account, body);
  await waitFor(() => !servers.some(cached), 5_000, `the announcement of ${body.slug}`);
  for (const server of servers) {
    await waitFor(async () => (await visit(server)).status === 302 && cached(server), 5_000, `${body.slug} to be cached`);
  }
  return link;
}
