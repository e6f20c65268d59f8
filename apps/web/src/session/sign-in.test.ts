import { buildServer } from '@shortlinks/server/build-server';
import { createAccount, type TestAccount, type TestServer, testServers } from '@shortlinks/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keyProblem, signIn } from './sign-in.ts';

const startTestServer = testServers(buildServer);

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
});
afterAll(async () => {
  await server?.close();
});

const never = () => {
  throw new Error('a sign-in check must not report a refused session');
};

describe('signing in against the real server', () => {
  test('a key the server accepts gives a working client', async () => {
    await account.call('POST', '/links', { title: 'One', destination_url: 'https://example.com/one' });
    const outcome = await signIn(server.origin, `  ${account.key}\n`, never);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect((await outcome.client.links.list()).total).toBe(1);
  });

  test('a wrong key is refused at the key field, with what to do', async () => {
    const outcome = await signIn(server.origin, 'slk_not_a_real_key', never);
    expect(outcome).toEqual({
      ok: false,
      field: 'key',
      message: 'The server did not accept this key. Check that you copied all of it, or ask for a new one.',
    });
  });

  test('an unreachable server is told apart from a wrong key', async () => {
    const closed = await startTestServer({ databaseUrl: server.databaseUrl });
    const origin = closed.origin;
    await closed.close();
    const outcome = await signIn(origin, account.key, never);
    expect(outcome).toMatchObject({ ok: false, field: 'form' });
    expect(!outcome.ok && outcome.message).toMatch(/could not be reached/);
  });

  test('a key revoked after signing in ends the session on the next answer', async () => {
    const second = await server.services.apiKeys.create(account.account.id);
    let refused = 0;
    const outcome = await signIn(server.origin, second.secret, () => refused++);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    await server.services.apiKeys.revoke(second.key.id);
    await expect(outcome.client.tags.list()).rejects.toMatchObject({ status: 401 });
    expect(refused).toBe(1);
  });

  test('an empty or broken key is pointed out without asking the server', () => {
    expect(keyProblem('   ')).toBe('Enter your API key. It starts with slk_.');
    expect(keyProblem('slk_abc def')).toBe('An API key has no spaces. Paste it again.');
    expect(keyProblem('slk_abc')).toBeUndefined();
  });
});
