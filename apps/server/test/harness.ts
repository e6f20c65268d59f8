import { testServers } from '@shortlinks/testing';
import { buildServer } from '../src/build-server.ts';

/**
 * The server's tests run against the real server built by `buildServer`, through the shared
 * harness (@shortlinks/testing): a database of its own, a random loopback port.
 */
export * from '@shortlinks/testing';

export const startTestServer = testServers(buildServer);
