// The real server on a test database (the shared harness), so the connection test is checked against real answers.
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer } from '../../e2e/test-server.ts';
import { testConnection } from './connection.ts';

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
  await account.call('POST', '/tags', { name: 'One' });
});
afterAll(() => server.close());

describe('testConnection', () => {
  test('reports the plan usage when the address and key are right', async () => {
    expect(await testConnection({ serverUrl: server.origin, apiKey: account.key })).toEqual({
      ok: true,
      links: 0,
      linkLimit: 1_000,
      tags: 1,
      tagLimit: 25,
    });
  });

  test('a wrong key is reported as a 401, not as an unreachable server', async () => {
    expect(await testConnection({ serverUrl: server.origin, apiKey: 'slk_wrong' })).toMatchObject({ ok: false, problem: 'unauthorized' });
  });

  test('a server that does not answer is reported as unreachable, naming the address', async () => {
    const report = await testConnection({ serverUrl: 'http://127.0.0.1:9', apiKey: account.key });
    expect(report).toMatchObject({ ok: false, problem: 'unreachable', message: expect.stringContaining('http://127.0.0.1:9') });
  });

  test('an address that is not a Shortlinks server says so', async () => {
    const report = await testConnection({ serverUrl: `${server.origin}/healthz-not-here`, apiKey: account.key });
    expect(report).toMatchObject({ ok: false, problem: 'server', message: expect.stringContaining('No Shortlinks server answered') });
  });
});
