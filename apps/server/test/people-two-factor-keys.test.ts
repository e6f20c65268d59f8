import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { addPerson, Browser, keyMadeBy } from './people.ts';

/*
 * A workspace that requires two-factor sign-in requires it of the people behind its API keys
 * (docs/accounts.md, "Two-factor sign-in"): a key made by a person without two-factor answers 403
 * TWO_FACTOR_ENROLMENT_REQUIRED on REST and tRPC, on every instance at once, and works again when
 * they turn it on. Operator keys and keys of people with two-factor on are not touched.
 */

let server: TestServer;
let second: TestServer;
let workspace: TestAccount;
let owner: Browser;
let member: Browser;
let ownerKey: string;
let memberKey: string;

const codeOf = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** Both transports, on a server: the REST list and tRPC's links.list with the key. */
async function answers(on: TestServer, key: string): Promise<{ rest: number; restCode: unknown; trpc: number; trpcCode: unknown }> {
  const rest = await callApi(on, key, 'GET', '/links');
  const trpc = await new Browser(on).query('links.list', {}, { authorization: `Bearer ${key}` });
  return { rest: rest.status, restCode: (rest.body as { code?: string })?.code, trpc: trpc.status, trpcCode: trpc.code };
}

/** Polls (the change is announced; within 1 s at the latest) until `server` answers `status` to `key`. */
async function settles(on: TestServer, key: string, status: number) {
  const deadline = Date.now() + 3000;
  let last = await answers(on, key);
  while ((last.rest !== status || last.trpc !== status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await answers(on, key);
  }
  return last;
}

beforeAll(async () => {
  server = await startTestServer({ signInLimits: { perEmail: 1000, perAddress: 1000 } });
  second = await startTestServer({ databaseUrl: server.databaseUrl });
  workspace = await createAccount(server, { name: 'Strict keys' });
  const ownerUser = await addPerson(server, workspace.account.id, 'owner', 'owner@strict-keys.example');
  const memberUser = await addPerson(server, workspace.account.id, 'member', 'member@strict-keys.example');
  owner = new Browser(server);
  member = new Browser(server);
  expect((await owner.signIn('owner@strict-keys.example')).status).toBe(200);
  expect((await member.signIn('member@strict-keys.example')).status).toBe(200);
  const enrolment = await owner.mutate('twoFactor.enrol');
  expect((await owner.mutate('twoFactor.confirm', { code: await codeOf(enrolment.data.secret) })).status).toBe(200);
  ownerKey = await keyMadeBy(server, workspace.account.id, ownerUser.id);
  memberKey = await keyMadeBy(server, workspace.account.id, memberUser.id);
}, 90_000);
afterAll(async () => {
  await second?.close();
  await server?.close();
});

describe('keys of people under a workspace that requires two-factor', () => {
  test('a person’s key works while the rule is off, and stops on every instance once it is on', async () => {
    // Both servers know the key (and keep its caller) before the rule changes.
    for (const on of [server, second]) expect(await answers(on, memberKey)).toMatchObject({ rest: 200, trpc: 200 });

    expect((await owner.mutate('twoFactor.require', { required: true })).status).toBe(200);
    for (const on of [server, second]) {
      expect(await settles(on, memberKey, 403)).toEqual({
        rest: 403,
        restCode: 'TWO_FACTOR_ENROLMENT_REQUIRED',
        trpc: 403,
        trpcCode: 'TWO_FACTOR_ENROLMENT_REQUIRED',
      });
    }
    // A refused write changes nothing.
    const before = await countRows(server, 'link');
    const created = await callApi(server, memberKey, 'POST', '/links', { title: 'No', destination_url: 'https://example.com/no' });
    expect(created.status).toBe(403);
    expect((created.body as { code: string }).code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    expect(await countRows(server, 'link')).toBe(before);

    // The owner has two-factor on, and the operator's key has no person behind it: both work.
    for (const on of [server, second]) {
      expect(await answers(on, ownerKey)).toMatchObject({ rest: 200, trpc: 200 });
      expect((await callApi(on, workspace.key, 'GET', '/links')).status).toBe(200);
    }
  });

  test('the key works again once its maker turns two-factor on, and stops when they turn it off', async () => {
    const enrolment = await member.mutate('twoFactor.enrol');
    const secret = enrolment.data.secret as string;
    expect((await member.mutate('twoFactor.confirm', { code: await codeOf(secret) })).status).toBe(200);
    for (const on of [server, second]) expect(await settles(on, memberKey, 200)).toMatchObject({ rest: 200, trpc: 200 });

    expect((await member.mutate('twoFactor.disable', { code: await codeOf(secret, 1) })).status).toBe(200);
    for (const on of [server, second]) expect(await settles(on, memberKey, 403)).toMatchObject({ rest: 403, trpc: 403 });
  });

  test('when the owner stops requiring it, the key works again without its maker enrolling', async () => {
    expect((await owner.mutate('twoFactor.require', { required: false })).status).toBe(200);
    for (const on of [server, second]) expect(await settles(on, memberKey, 200)).toMatchObject({ rest: 200, trpc: 200 });
  });
});
