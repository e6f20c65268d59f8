import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const FIREFOX_EXTENSION = 'moz-extension://0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';

let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  account = await createAccount(server);
});
afterAll(() => server.close());

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(`${server.origin}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });

describe('CORS for browser extensions', () => {
  test('a preflight from an extension page to tRPC and REST is allowed with the authorization header', async () => {
    for (const [path, method] of [
      ['/trpc/links.upsert', 'POST'],
      ['/api/v1/links/lnk_x', 'PATCH'],
      ['/api/v1/tags/tag_x', 'DELETE'],
    ] as const) {
      const response = await preflight(path, EXTENSION, method);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(EXTENSION);
      expect(response.headers.get('access-control-allow-methods')).toContain(method);
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
  });

  test('a Firefox extension origin is allowed too', async () => {
    const response = await preflight('/trpc/links.list', FIREFOX_EXTENSION, 'GET');
    expect(response.headers.get('access-control-allow-origin')).toBe(FIREFOX_EXTENSION);
  });

  test('answers, errors included, carry the extension origin so the extension can read a 401', async () => {
    const ok = await fetch(`${server.api}/tags`, { headers: { origin: EXTENSION, authorization: `Bearer ${account.key}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(EXTENSION);
    const unauthorized = await fetch(`${server.origin}/trpc/tags.list`, {
      headers: { origin: EXTENSION, authorization: 'Bearer slk_wrong' },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(EXTENSION);
  });

  test('a path no route serves answers 404 with the extension origin, so the extension can read it', async () => {
    const response = await fetch(`${server.origin}/trpc/no/such/route`, { method: 'POST', headers: { origin: EXTENSION } });
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBe(EXTENSION);
    expect(((await response.json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  test('a short-link redirect carries no CORS headers: browsers follow it, nobody reads it across origins', async () => {
    const link = await account.call('POST', '/links', { title: 'CORS', destination_url: 'https://example.com/cors' });
    const response = await fetch(`${server.origin}/${link.body.slug}`, { redirect: 'manual', headers: { origin: EXTENSION } });
    expect(response.status).toBe(302);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('vary')).toBeNull();
  });

  test('a web page origin gets no CORS headers', async () => {
    const response = await preflight('/trpc/links.upsert', 'https://evil.example');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const plain = await fetch(`${server.api}/tags`, {
      headers: { origin: 'https://evil.example', authorization: `Bearer ${account.key}` },
    });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('an origin that only looks like an extension is refused', async () => {
    const response = await preflight('/trpc/links.upsert', `${EXTENSION}.evil.example`);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('an OPTIONS request that is no preflight is answered 204, without CORS headers', async () => {
    const response = await fetch(`${server.api}/links`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
