import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAccount, createLink, startTestServer, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';

/**
 * A webhook deleted while one of its deliveries is on its way (docs/webhooks.md, `DELETE
 * /webhooks/{id}`): the delivery goes with it, and the answer arriving after is dropped without a word,
 * rather than an attempt written for a delivery that is gone (a foreign-key error, and the queue's
 * job failed and tried again).
 */
let server: TestServer;
const logged: string[] = [];
const held: ServerResponse[] = [];
const receiver = createServer((request, response) => {
  request.resume();
  held.push(response);
});

beforeAll(async () => {
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  server = await startTestServer({
    webhooks: { allowPrivateTargets: true, retryDelays: [0] },
    logLevel: 'warn',
    logStream: { write: (line) => logged.push(line) },
  });
});
afterAll(async () => {
  await server?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test('the answer to a delivery whose webhook was deleted meanwhile is dropped: no attempt, no error', { timeout: 60_000 }, async () => {
  const account = await createAccount(server);
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const hook = (await account.call('POST', '/webhooks', { url, events: ['link.created'] })).body;
  await createLink(account);
  await waitFor(() => held.length === 1, 20_000, 'the delivery on its way');

  expect((await account.call('DELETE', `/webhooks/${hook.id}`)).status).toBe(204);
  held[0]?.writeHead(204).end();

  const db = server.orm.em.fork().getConnection();
  // The queue's job finishes (done, not failed and waiting to run again).
  await waitFor(
    async () =>
      (await db.execute("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook_delivery'"))[0]?.n === 0,
    20_000,
    "the delivery's job done",
  );
  expect((await db.execute('select count(*)::int as n from webhook_attempt'))[0]?.n).toBe(0);
  expect(logged.filter((line) => /webhook/i.test(line))).toEqual([]);
});
