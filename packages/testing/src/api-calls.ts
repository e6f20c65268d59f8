import type { AccountView, NewAccount } from '@shortlinks/api/services';
import { DAY_MS } from '@shortlinks/contract';
import { expect } from 'vitest';
import type { TestServer } from './test-server.ts';

export interface TestAccount {
  account: AccountView;
  key: string;
  /** fetch() against /api/v1 with this account's key; JSON bodies are serialised. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
  body: any;
  text: string;
}

/** A new account with its own API key, and a caller for it. */
export async function createAccount(server: TestServer, request: Partial<NewAccount> = {}): Promise<TestAccount> {
  const account = await server.services.accounts.create({ name: 'Test', plan: 'starter', ...request });
  const { secret } = await server.services.apiKeys.create(account.id);
  return { account, key: secret, call: (method, path, body, headers) => callApi(server, secret, method, path, body, headers) };
}

export async function callApi(
  server: TestServer,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  const requestHeaders = init.headers as Record<string, string>;
  if (key !== undefined) requestHeaders.authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    requestHeaders['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.api}${path}`, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Rows of a table of the test database, for asserting what a request did (or did not) save. */
export async function countRows(
  server: TestServer,
  table: 'link' | 'tag' | 'link_tag' | 'account' | 'api_key',
  where = 'true',
): Promise<number> {
  const rows = await server.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table} where ${where}`);
  return (rows[0] as { n: number }).n;
}

/** A time comfortably in the future, in Unix ms. */
export const inDays = (days: number) => Date.now() + days * DAY_MS;

let linkCounter = 0;

/** Creates a link (by default with a destination no other call uses) and returns its body; a failure fails the test. */
export async function createLink(account: TestAccount, body: Record<string, unknown> = {}) {
  linkCounter += 1;
  const response = await account.call('POST', '/links', {
    title: 'Link',
    destination_url: `https://example.com/made/${linkCounter}`,
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** GET /links/{id}, which must succeed. */
export async function getLink(account: TestAccount, id: string) {
  const response = await account.call('GET', `/links/${id}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** The names of a link's tags, in the order the API gives them. */
export const tagNames = (link: { tags: { name: string }[] }) => link.tags.map((tag) => tag.name);
