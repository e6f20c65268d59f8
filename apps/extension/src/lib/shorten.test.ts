// The real server on a test database (the shared harness); the browser's memory of page links is a Map here.
import type { ShortlinksClient } from '@shortlinks/client';
import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestServer } from '../../e2e/test-server.ts';
import { clientFor } from './connection.ts';
import { pageKeyOf } from './page-key.ts';
import type { PageLinks } from './page-links.ts';
import { findPageLink } from './shorten.ts';

let server: TestServer;
let account: TestAccount;
let client: ShortlinksClient;
let remembered: Map<string, string>;
const memory: PageLinks = {
  linkOf: async (pageUrl) => remembered.get(pageKeyOf(pageUrl)),
  remember: async (pageUrl, linkId) => void remembered.set(pageKeyOf(pageUrl), linkId),
  forget: async (pageUrl) => void remembered.delete(pageKeyOf(pageUrl)),
};

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
  client = clientFor({ serverUrl: server.origin, apiKey: account.key });
});
afterAll(() => server.close());
beforeEach(() => {
  remembered = new Map();
});

const create = async (destination_url: string, extra: object = {}) =>
  (await account.call('POST', '/links', { title: 'A page', destination_url, ...extra })).body as { id: string; destination_url: string };

describe('findPageLink', () => {
  test('finds the page’s link after its UTM changed and from an anchor, without creating a link', async () => {
    const link = await create('https://blog.example.com/post/1', { utm: { source: 'newsletter' } });
    await memory.remember('https://blog.example.com/post/1', link.id);
    const before = (await account.call('GET', '/links')).body.total;
    expect((await findPageLink(client, 'https://blog.example.com/post/1#comments', memory))?.id).toBe(link.id);
    expect((await findPageLink(client, 'https://blog.example.com/post/1?utm_source=twitter', memory))?.id).toBe(link.id);
    expect((await account.call('GET', '/links')).body.total).toBe(before);
  });

  test('a page this browser does not remember is found among the newest links, and remembered', async () => {
    const link = await create('https://docs.example.com/guide?utm_campaign=spring');
    expect((await findPageLink(client, 'https://docs.example.com/guide#install', memory))?.id).toBe(link.id);
    expect(remembered.get(pageKeyOf('https://docs.example.com/guide'))).toBe(link.id);
  });

  test('a remembered link deleted since is forgotten, and nothing is found for a page without a link', async () => {
    const link = await create('https://shop.example.com/item/3');
    await memory.remember('https://shop.example.com/item/3', link.id);
    await account.call('DELETE', `/links/${link.id}`);
    expect(await findPageLink(client, 'https://shop.example.com/item/3', memory)).toBeUndefined();
    expect(remembered.size).toBe(0);
  });

  test('a remembered link now leading elsewhere is not this page’s link', async () => {
    const link = await create('https://shop.example.com/item/4');
    await memory.remember('https://shop.example.com/item/5', link.id);
    expect(await findPageLink(client, 'https://shop.example.com/item/5', memory)).toBeUndefined();
  });

  test('a link made without the page’s secrets is found from the page with them; other pages are not mixed up', async () => {
    const link = await create('https://mail.example.com/thread?id=9');
    expect((await findPageLink(client, 'https://mail.example.com/thread?id=9&session=abc', memory))?.id).toBe(link.id);
    expect(await findPageLink(client, 'https://mail.example.com/thread?id=10', memory)).toBeUndefined();
    await create('https://app.example.com/#/inbox/1');
    expect(await findPageLink(client, 'https://app.example.com/#/inbox/2', memory)).toBeUndefined();
  });
});
