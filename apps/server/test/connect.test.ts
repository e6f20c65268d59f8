import { createHash, randomBytes } from 'node:crypto';
import { EXTENSION_SCOPES } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser } from './people.ts';

/*
 * Connect (issue #26, docs/accounts.md "Connect", docs/security.md): the extension gets a key a
 * signed-in person approved, by a verifier only it holds; no key in any URL. The attacker's tests:
 * a guessed or replayed verifier, another verifier for an approved challenge, a cross-site approval.
 */

let server: TestServer;
let workspace: TestAccount;
let owner: Browser;
let viewer: Browser;

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createAccount(server, { name: 'Connect', plan: 'unlimited' });
  await addPerson(server, workspace.account.id, 'owner', 'owner@connect.example');
  await addPerson(server, workspace.account.id, 'viewer', 'viewer@connect.example');
  owner = new Browser(server);
  viewer = new Browser(server);
  expect((await owner.signIn('owner@connect.example')).status).toBe(200);
  expect((await viewer.signIn('viewer@connect.example')).status).toBe(200);
});
afterAll(() => server.close());

/** What the extension makes: a random verifier and the challenge the dashboard is shown. */
function pair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The extension's poll: no cookie, no key, from its own origin. */
async function claim(verifier: string) {
  const response = await fetch(`${server.origin}/trpc/connect.claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' },
    body: JSON.stringify({ verifier }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tRPC's envelope
  const body: any = await response.json();
  return { status: response.status, data: body.result?.data, code: body.error?.data?.appCode as string | undefined };
}

describe('Connect', () => {
  test('approved: the extension claims a key with just its scopes, once; it works as its approver', async () => {
    const { verifier, challenge } = pair();
    expect((await claim(verifier)).data).toEqual({ status: 'pending' });
    expect(await owner.mutate('connect.approve', { challenge, client: 'extension' })).toMatchObject({ status: 200 });
    // The challenge is stored hashed: neither it nor the verifier is in the table.
    const rows = await server.orm.em.fork().getConnection().execute('select * from connect_request');
    expect(JSON.stringify(rows)).not.toContain(challenge);
    expect(JSON.stringify(rows)).not.toContain(verifier);

    const claimed = await claim(verifier);
    expect(claimed.data).toMatchObject({
      status: 'approved',
      name: 'Browser extension',
      scopes: [...EXTENSION_SCOPES],
      workspace: 'Connect',
    });
    const key = claimed.data.key as string;
    expect(key).toMatch(/^slk_/);
    const link = await callApi(server, key, 'POST', '/links', { title: 'From the extension', destination_url: 'https://example.com/ext' });
    expect(link.status).toBe(201);
    expect((await callApi(server, key, 'GET', '/keys')).body.message).toBe('This key lacks the scope keys.write');
    // Listed as the owner's key.
    const listed = (await owner.query('keys.list')).data.keys.map((k: { name: string }) => k.name);
    expect(listed).toContain('Browser extension');

    // Replayed: the answer was claimed; no second key.
    const keys = await countRows(server, 'api_key');
    expect((await claim(verifier)).data).toEqual({ status: 'expired' });
    expect(await countRows(server, 'api_key')).toBe(keys);
  });

  test('declined: the extension hears it, and no key is made', async () => {
    const { verifier, challenge } = pair();
    const keys = await countRows(server, 'api_key');
    expect((await owner.mutate('connect.decline', { challenge, client: 'extension' })).status).toBe(200);
    expect((await claim(verifier)).data).toEqual({ status: 'declined' });
    expect((await claim(verifier)).data).toEqual({ status: 'expired' });
    expect(await countRows(server, 'api_key')).toBe(keys);
  });

  test('a guessed verifier, or another one than the approved challenge’s, gets nothing', async () => {
    const { challenge } = pair();
    const attacker = pair();
    const keys = await countRows(server, 'api_key');
    expect((await owner.mutate('connect.approve', { challenge, client: 'extension' })).status).toBe(200);
    // The attacker's own verifier, a guess, and the challenge itself sent as a verifier.
    for (const guess of [attacker.verifier, randomBytes(32).toString('base64url'), challenge]) {
      expect((await claim(guess)).data).toEqual({ status: 'pending' });
    }
    expect(await countRows(server, 'api_key')).toBe(keys);
    // An attacker who approves their own challenge in their own session gets a key of their own
    // workspace only: never the victim's.
  });

  test('each challenge is answered once', async () => {
    const { challenge } = pair();
    expect((await owner.mutate('connect.approve', { challenge, client: 'extension' })).status).toBe(200);
    expect(await owner.mutate('connect.decline', { challenge, client: 'extension' })).toMatchObject({
      status: 409,
      code: 'CONNECT_ALREADY_ANSWERED',
    });
  });

  test('a cross-site approval is refused, as is one without the CSRF token, or made with a key', async () => {
    const { verifier, challenge } = pair();
    const forged = await owner.mutate('connect.approve', { challenge, client: 'extension' }, { origin: 'https://evil.example' });
    expect(forged).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const tokenless = await owner.mutate('connect.approve', { challenge, client: 'extension' }, { 'x-csrf-token': '' });
    expect(tokenless).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const byKey = await new Browser(server).mutate(
      'connect.approve',
      { challenge, client: 'extension' },
      { authorization: `Bearer ${workspace.key}` },
    );
    expect(byKey).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await claim(verifier)).data).toEqual({ status: 'pending' });
  });

  test("a viewer cannot approve the extension's write scopes", async () => {
    const { verifier, challenge } = pair();
    const refused = await viewer.mutate('connect.approve', { challenge, client: 'extension' });
    expect(refused).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(refused.message).toContain('links.write');
    expect((await claim(verifier)).data).toEqual({ status: 'pending' });
    // Declining is open to anyone.
    expect((await viewer.mutate('connect.decline', { challenge, client: 'extension' })).status).toBe(200);
  });

  test('an answer expires after 10 minutes', async () => {
    const { verifier, challenge } = pair();
    expect((await owner.mutate('connect.approve', { challenge, client: 'extension' })).status).toBe(200);
    const hash = createHash('sha256').update(challenge).digest('hex');
    await server.orm.em
      .fork()
      .getConnection()
      .execute("update connect_request set expires_at = now() - interval '1 second' where challenge_hash = ?", [hash]);
    expect((await claim(verifier)).data).toEqual({ status: 'expired' });
  });

  test('bad bodies are 422 naming the field; an unknown client is refused', async () => {
    expect(await owner.mutate('connect.approve', { challenge: 'short', client: 'extension' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    expect(await owner.mutate('connect.approve', { challenge: pair().challenge, client: 'cli' })).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
    });
    const bad = await claim('not a verifier');
    expect(bad).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
  });
});
