/**
 * Part of `pnpm bench:export-import`: a server on DATABASE_URL, and GET /api/v1/links/export read
 * to the end through it, in this one process (whose peak RSS the bench measures). Arguments: the
 * API key, and the number of links expected.
 */
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm } from '@shortlinks/db';
import { buildServer } from '../src/build-server.ts';

const [key, expected] = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL ?? '';
const orm = await createOrm({ databaseUrl, poolSize: 4 });
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const app = await buildServer({ orm, services, databaseUrl, baseUrl: 'http://127.0.0.1', logLevel: 'warn' });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
try {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/links/export?format=csv`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let lines = 0;
  for await (const chunk of response.body) for (const byte of chunk as Uint8Array) if (byte === 0x0a) lines++;
  // Rows whose title holds no line break: one line each, plus the header.
  if (lines !== Number(expected) + 1) throw new Error(`read ${lines - 1} links, expected ${expected}`);
} finally {
  await app.close();
  await orm.close();
}
