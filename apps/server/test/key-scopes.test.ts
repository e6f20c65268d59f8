import { everyProcedureMeta } from '@shortlinks/api';
import { SCOPES, type Scope, scopeGranted } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callApi, countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { Browser } from './people.ts';

/*
 * Keys with scopes (issue #27, docs/accounts.md "Keys and scopes"): every procedure declares the
 * scope a key needs; a key without it is refused with 403 FORBIDDEN naming the scope, on REST and
 * tRPC alike, before the procedure runs, and nothing changes.
 */

let server: TestServer;
let workspace: TestAccount;
/** A key holding exactly one scope, for each scope. */
const keyWith = {} as Record<Scope, string>;

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createAccount(server, { name: 'Scopes', plan: 'unlimited' });
  for (const scope of SCOPES) keyWith[scope] = (await server.services.apiKeys.create(workspace.account.id, { scopes: [scope] })).secret;
});
afterAll(() => server.close());

/** Every procedure a key may call with a scope, with a request that names nothing real. */
const scoped = everyProcedureMeta().flatMap(([path, meta]) =>
  (SCOPES as readonly string[]).includes(meta.scope) ? [{ path, meta, scope: meta.scope as Scope }] : [],
);

const restPath = (path: string) => path.replace(/\{[a-z_]+\}/g, 'nothing');
const trpcInput = (path: string) =>
  Object.fromEntries([...path.matchAll(/\{([a-z_]+)\}/g)].map((match) => [match[1] as string, 'nothing']));

/** A REST call of the operation with the key, with a body the transport accepts. */
function callRest(key: string, method: string, path: string) {
  if (path === '/links/import') return callApi(server, key, method, path, 'slug,destination_url\n', { 'content-type': 'text/csv' });
  return callApi(server, key, method, restPath(path), method === 'GET' || method === 'DELETE' ? undefined : {});
}

function callTrpc(key: string, path: string, method: string, openapiPath: string) {
  const browser = new Browser(server);
  const input = trpcInput(openapiPath);
  const headers = { authorization: `Bearer ${key}` };
  return method === 'GET' ? browser.query(path, input, headers) : browser.mutate(path, input, headers);
}

describe('each scope allows exactly its calls', () => {
  test('every procedure declares a scope, and every scope is some procedure’s (audit.read waits for the audit log)', () => {
    for (const [path, meta] of everyProcedureMeta()) expect(typeof meta.scope, path).toBe('string');
    const used = new Set(scoped.map(({ scope }) => scope));
    expect(SCOPES.filter((scope) => !used.has(scope))).toEqual([]);
  });

  test('on REST and tRPC: a key lacking the scope gets 403 naming it; a key holding it (or its .write) gets past', async () => {
    const before = { links: await countRows(server, 'link'), tags: await countRows(server, 'tag') };
    const wrong: string[] = [];
    for (const { path, meta, scope } of scoped) {
      for (const held of SCOPES) {
        const allowed = scopeGranted([held], scope);
        const rest = await callRest(keyWith[held], meta.openapi.method, meta.openapi.path);
        const trpc = await callTrpc(keyWith[held], path, meta.openapi.method, meta.openapi.path);
        const message = `This key lacks the scope ${scope}`;
        const restRefused = rest.status === 403 && rest.body?.code === 'FORBIDDEN' && rest.body?.message === message;
        const trpcRefused = trpc.status === 403 && trpc.code === 'FORBIDDEN' && trpc.message === message;
        if (restRefused === allowed) wrong.push(`REST ${path} with ${held}: ${rest.status} ${rest.text.slice(0, 120)}`);
        if (trpcRefused === allowed) wrong.push(`tRPC ${path} with ${held}: ${trpc.status} ${trpc.message}`);
        // Past the scope, what answers is the procedure's own (an unknown id, a bad body), never a 500.
        if (allowed) expect([rest.status, trpc.status], `${path} with ${held}`).not.toContain(500);
      }
    }
    expect(wrong).toEqual([]);
    expect({ links: await countRows(server, 'link'), tags: await countRows(server, 'tag') }).toEqual(before);
  }, 120_000);

  test('a refused write changes nothing: links.read cannot create a link, tags.read cannot create a tag', async () => {
    const before = await countRows(server, 'link');
    const refused = await callApi(server, keyWith['links.read'], 'POST', '/links', {
      title: 'Scoped',
      destination_url: 'https://example.com/a',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'FORBIDDEN', message: 'This key lacks the scope links.write' });
    expect(await countRows(server, 'link')).toBe(before);
    const tag = await callApi(server, keyWith['tags.read'], 'POST', '/tags', { name: 'nope' });
    expect(tag.body).toEqual({ code: 'FORBIDDEN', message: 'This key lacks the scope tags.write' });
    expect(await countRows(server, 'tag', "name = 'nope'")).toBe(0);
    // And with the scope, the same calls work.
    expect(
      (await callApi(server, keyWith['links.write'], 'POST', '/links', { title: 'Scoped', destination_url: 'https://example.com/a' }))
        .status,
    ).toBe(201);
  });

  test('a key made before scopes (every scope) keeps working everywhere it did', async () => {
    expect((await workspace.call('POST', '/tags', { name: 'legacy' })).status).toBe(201);
    expect((await workspace.call('GET', '/stats')).status).toBe(200);
    const members = await new Browser(server).query('members.list', {}, { authorization: `Bearer ${workspace.key}` });
    expect(members.status).toBe(200);
  });

  test("people's own procedures refuse every key; managing people needs a key with every scope", async () => {
    const me = await new Browser(server).query('auth.me', {}, { authorization: `Bearer ${workspace.key}` });
    expect(me).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const partial = (await server.services.apiKeys.create(workspace.account.id, { scopes: SCOPES.filter((s) => s !== 'audit.read') }))
      .secret;
    const members = await new Browser(server).query('members.list', {}, { authorization: `Bearer ${partial}` });
    expect(members).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(members.message).toContain('This key lacks the scope audit.read');
  });
});

describe('tag_names', () => {
  let linksOnly: string;
  beforeAll(async () => {
    linksOnly = (await server.services.apiKeys.create(workspace.account.id, { scopes: ['links.write'] })).secret;
    expect((await workspace.call('POST', '/tags', { name: 'Existing' })).status).toBe(201);
  });

  test('attaching existing tags needs only links.write; creating one needs tags.write too, and nothing changes', async () => {
    const attached = await callApi(server, linksOnly, 'POST', '/links', {
      title: 'Scoped',
      destination_url: 'https://example.com/t1',
      tag_names: ['existing'],
    });
    expect(attached.status).toBe(201);
    expect(attached.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Existing']);

    const links = await countRows(server, 'link');
    const tags = await countRows(server, 'tag');
    const refused = await callApi(server, linksOnly, 'POST', '/links', {
      title: 'Scoped',
      destination_url: 'https://example.com/t2',
      tag_names: ['Existing', 'Brand new'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'FORBIDDEN', message: 'This key lacks the scope tags.write' });
    const trpc = await new Browser(server).mutate(
      'links.create',
      { title: 'Scoped', destination_url: 'https://example.com/t2', tag_names: ['Brand new'] },
      { authorization: `Bearer ${linksOnly}`, origin: '' },
    );
    expect(trpc).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'This key lacks the scope tags.write' });
    const upsert = await callApi(server, linksOnly, 'POST', '/links/upsert', {
      title: 'Scoped',
      destination_url: 'https://example.com/t1',
      tag_names: ['New one'],
    });
    expect(upsert.status).toBe(403);
    const update = await callApi(server, linksOnly, 'PATCH', `/links/${attached.body.id}`, { tag_names: ['Other new'] });
    expect(update.status).toBe(403);
    const bulk = await callApi(server, linksOnly, 'POST', '/links/bulk', {
      links: [
        { title: 'Scoped', destination_url: 'https://example.com/b1' },
        { title: 'Scoped', destination_url: 'https://example.com/b2', tag_names: ['Bulk new'] },
      ],
    });
    expect(bulk.status).toBe(403);
    expect(bulk.body.message).toBe('This key lacks the scope tags.write');
    const bulkUpdate = await callApi(server, linksOnly, 'PATCH', '/links/bulk', {
      ids: [attached.body.id],
      changes: { tag_names: ['Bulk new'] },
    });
    expect(bulkUpdate.status).toBe(403);
    expect({ links: await countRows(server, 'link'), tags: await countRows(server, 'tag') }).toEqual({ links, tags });
  });

  test('an import by such a key refuses only the rows naming new tags', async () => {
    const tags = await countRows(server, 'tag');
    const file = 'destination_url,tags\nhttps://example.com/i1,Existing\nhttps://example.com/i2,Imported new\n';
    const answer = await callApi(server, linksOnly, 'POST', '/links/import', file, { 'content-type': 'text/csv' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ created: 1, refused: 1 });
    expect(answer.body.refusals[0]).toMatchObject({ row: 3, code: 'FORBIDDEN', message: 'This key lacks the scope tags.write' });
    expect(await countRows(server, 'tag')).toBe(tags);
  });

  test('with tags.write as well, tag_names creates the tag', async () => {
    const both = (await server.services.apiKeys.create(workspace.account.id, { scopes: ['links.write', 'tags.write'] })).secret;
    const created = await callApi(server, both, 'POST', '/links', {
      title: 'Scoped',
      destination_url: 'https://example.com/t3',
      tag_names: ['Made by key'],
    });
    expect(created.status).toBe(201);
    expect(await countRows(server, 'tag', "name = 'Made by key'")).toBe(1);
  });
});

describe('the OpenAPI document and the SDK', () => {
  test('each operation names its scope (x-scope) and the security requirement lists it', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is read where it is known
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as any;
    expect(document.paths['/links'].post['x-scope']).toBe('links.write');
    expect(document.paths['/links'].post.security).toEqual([{ bearerAuth: ['links.write'] }]);
    expect(document.paths['/links'].get['x-scope']).toBe('links.read');
    expect(document.paths['/stats'].get['x-scope']).toBe('analytics.read');
    expect(document.paths['/keys'].post['x-scope']).toBe('keys.write');
    expect(document.paths['/webhooks'].get.security).toEqual([{ bearerAuth: ['webhooks.read'] }]);
    for (const [path, operations] of Object.entries(document.paths) as [string, Record<string, { 'x-scope'?: string }>][]) {
      for (const [method, operation] of Object.entries(operations)) expect(operation['x-scope'], `${method} ${path}`).toBeDefined();
    }
  });
});
