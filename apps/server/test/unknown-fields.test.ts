import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let account: TestAccount;
let linkId: string;

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
  const created = await account.call('POST', '/links', { destination_url: 'https://example.com/fields', title: 'Fields' });
  expect(created.status).toBe(201);
  linkId = created.body.id;
});
afterAll(() => server.close());

/** Names every plain object inherits, and the one that sets its prototype. */
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

const unknown = (name: string) => ({ code: 'VALIDATION_ERROR', field: name, message: `Unknown field "${name}"` });

describe('unknown field names, those every object inherits included, are refused by name', () => {
  test('REST query: GET /links?NAME=1 and GET /links/export?NAME=1', async () => {
    for (const name of INHERITED) {
      for (const path of ['/links', '/links/export']) {
        const response = await account.call('GET', `${path}?${name}=1`);
        expect(response.status, `${path}?${name}`).toBe(422);
        expect(response.body, `${path}?${name}`).toEqual(unknown(name));
      }
    }
  });

  test('REST JSON body: POST /links and PATCH /links/{id}, nothing saved', async () => {
    const before = await countRows(server, 'link');
    for (const name of INHERITED) {
      const body = `{"destination_url":"https://example.com/new","title":"New","${name}":1}`;
      const created = await account.call('POST', '/links', body);
      expect(created.status, `POST ${name}: ${created.text}`).toBe(422);
      expect(created.body, name).toEqual(unknown(name));
      const patched = await account.call('PATCH', `/links/${linkId}`, `{"title":"changed","${name}":{"x":1}}`);
      expect(patched.status, `PATCH ${name}: ${patched.text}`).toBe(422);
      expect(patched.body, name).toEqual(unknown(name));
    }
    expect(await countRows(server, 'link')).toBe(before);
    expect((await account.call('GET', `/links/${linkId}`)).body.title).toBe('Fields');
  });

  test('the fields that cannot be changed keep their own message, even on an inherited name', async () => {
    const patched = await account.call('PATCH', `/links/${linkId}`, { slug: 'other' });
    expect(patched.status).toBe(422);
    expect(patched.body).toMatchObject({ field: 'slug', message: 'slug cannot be changed after creation' });
  });

  test('tRPC: a mutation body and a query input', async () => {
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    for (const name of INHERITED) {
      const mutation = await fetch(`${server.origin}/trpc/links.create`, {
        method: 'POST',
        headers,
        body: `{"destination_url":"https://example.com/new","title":"New","${name}":1}`,
      });
      const created = (await mutation.json()) as { error?: { data: Record<string, unknown> } };
      expect(mutation.status, name).toBe(422);
      expect(created.error?.data, name).toMatchObject({ appCode: 'VALIDATION_ERROR', field: name, appMessage: `Unknown field "${name}"` });
      const query = await fetch(`${server.origin}/trpc/links.list?input=${encodeURIComponent(`{"${name}":1}`)}`, { headers });
      const listed = (await query.json()) as { error?: { data: Record<string, unknown> } };
      expect(query.status, name).toBe(422);
      expect(listed.error?.data, name).toMatchObject({ appCode: 'VALIDATION_ERROR', field: name, appMessage: `Unknown field "${name}"` });
    }
  });
});
