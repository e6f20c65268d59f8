import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createOrm, type Orm } from './orm.ts';

/**
 * A database host that accepts connections and never answers (a hung server, a half-open
 * firewall): a request fails within the connect bound instead of waiting for ever.
 */
let silent: ReturnType<typeof createServer>;
const sockets: Socket[] = [];
let orm: Orm;

beforeAll(async () => {
  silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  orm = await createOrm({ databaseUrl: `postgres://app:secret@127.0.0.1:${port}/shortlinks` });
});

afterAll(async () => {
  await orm?.close().catch(() => {});
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

test('a query fails after the 5 s connect bound, with the message an outage is recognised by (database-unavailable.ts)', async () => {
  const started = performance.now();
  const error = await orm.em
    .fork()
    .getConnection()
    .execute('select 1')
    .then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
  const took = performance.now() - started;
  // The client's own connect bound or the pool's wait for it, whichever fires first: both 5 s.
  expect(error?.message).toMatch(/^(timeout expired|Connection terminated due to connection timeout)$/);
  expect(took).toBeGreaterThanOrEqual(4_500);
  expect(took).toBeLessThan(15_000);
}, 30_000);
