import { buildServer } from '@shortlinks/server/build-server';
import { testServers } from '@shortlinks/testing';

/** The real server, on a database of its own and a loopback port, serving the built dashboard. */
export const startTestServer = testServers(buildServer);
