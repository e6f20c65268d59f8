import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureDashboardBuilt, inputsHash } from '../src/dashboard/build-on-start.ts';
import { DASHBOARD_DIR, STAMP_FILE } from '../src/dashboard/location.ts';
import { dashboardPlugin } from '../src/plugins/dashboard.ts';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let account: TestAccount;
let asset: string;
let stylesheet: string;

beforeAll(async () => {
  // The global setup built it; this finds it fresh (or builds it, run on its own after a change).
  const build = await ensureDashboardBuilt();
  expect(build.state).not.toBe('failed');
  server = await startTestServer();
  account = await createAccount(server);
  const assets = await readdir(path.join(DASHBOARD_DIR, 'assets'));
  asset = assets.find((name) => name.endsWith('.js'))!;
  stylesheet = assets.find((name) => name.endsWith('.css'))!;
});
afterAll(async () => {
  await server?.close();
});

const get = (pathname: string, init?: RequestInit) => fetch(`${server.origin}${pathname}`, { redirect: 'manual', ...init });

/** The Content-Security-Policy as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** Every header the dashboard promises (docs/dashboard.md, *Headers*). */
function expectDashboardHeaders(response: Response) {
  const csp = directives(response.headers.get('content-security-policy'));
  expect(csp).toEqual({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  });
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  // HTTPS is declared by the operator's proxy, not by the dashboard for the whole short-link domain.
  expect(response.headers.get('strict-transport-security')).toBeNull();
}

describe('the dashboard at /app', () => {
  test('/app, /app/ and a client-side route all give the page, never cached without asking, with every header', async () => {
    const page = await readFile(path.join(DASHBOARD_DIR, 'index.html'), 'utf8');
    for (const pathname of ['/app', '/app/', '/app/links/lnk_V1StGXR8Z5jdHi', '/app/tags/tag_1', '/app/overview?from=menu']) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expectDashboardHeaders(response);
      expect(await response.text()).toBe(page);
    }
  });

  test('the page loads only its own hashed files, and has no inline script or style to allow', async () => {
    const page = await (await get('/app')).text();
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).toContain(`src="/app/assets/${asset}"`);
    expect(scripts[0]![2]!.trim()).toBe('');
    expect(page).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    expect(page).toContain(`href="/app/assets/${stylesheet}"`);
    // Every address in the page is its own (or data:), none another origin's.
    for (const [, address] of page.matchAll(/(?:src|href)="([^"]+)"/g)) expect(address).toMatch(/^(\/app\/|data:)/);
  });

  test('hashed assets are served for a year, immutable, with the same headers', async () => {
    for (const [name, type] of [
      [asset, /javascript/],
      [stylesheet, /text\/css/],
    ] as const) {
      const response = await get(`/app/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectDashboardHeaders(response);
      expect(await response.text()).toBe(await readFile(path.join(DASHBOARD_DIR, 'assets', name), 'utf8'));
    }
  });

  test('the script is a production build, whatever NODE_ENV the builder ran with (the tests run with "test")', async () => {
    const script = await (await get(`/app/assets/${asset}`)).text();
    // React's development build warns through this frame; its production build has none of it.
    expect(script).not.toContain('ReactDebugCurrentFrame');
    expect(script.length).toBeLessThan(450_000);
  });

  test('a missing asset or file is a 404, not the page', async () => {
    for (const pathname of ['/app/assets/index-0000000.js', '/app/main.js', '/app/links/x.png', `/app/${STAMP_FILE}`]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).not.toContain('<div id="root">');
    }
    // Nothing outside the build is reachable through it.
    for (const pathname of [
      '/app/assets/../../package.json',
      '/app/assets/%2e%2e/%2e%2e/package.json',
      '/app/assets/..%2f..%2fpackage.json',
    ]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBeGreaterThanOrEqual(400);
      expect(await response.text()).not.toContain('@shortlinks/web');
    }
  });

  test('a redirect, the home page and the API carry none of the dashboard’s headers', async () => {
    await account.call('POST', '/links', { title: 'Home', destination_url: 'https://example.com/home', slug: 'plain' });
    const answers = [
      await get('/plain'),
      await get('/no-such-slug'),
      await get('/'),
      await get('/api/v1/links', { headers: { authorization: `Bearer ${account.key}` } }),
      await get('/trpc/tags.list?input=%7B%7D', { headers: { authorization: `Bearer ${account.key}` } }),
      await get('/healthz'),
    ];
    expect(answers.map((response) => response.status)).toEqual([302, 404, 200, 200, 200, 200]);
    for (const response of answers) {
      for (const header of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'referrer-policy']) {
        expect(response.headers.get(header), `${response.url} ${header}`).toBeNull();
      }
    }
  });

  test('the home page leads to the dashboard', async () => {
    expect(await (await get('/')).text()).toContain('<a href="/app">Open the dashboard</a>');
  });

  test('a path that only starts like the dashboard is a short link’s, not the dashboard’s', async () => {
    await account.call('POST', '/links', { title: 'Apple', destination_url: 'https://example.com/apple', slug: 'apple' });
    const response = await get('/apple');
    expect(response.status).toBe(302);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});

describe('a server started without a built dashboard', () => {
  test('says how to build it at /app, with the same headers, instead of a blank page', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'shortlinks-no-dashboard-'));
    const app = Fastify();
    await app.register(dashboardPlugin, { prefix: '/app', root: empty });
    try {
      for (const url of ['/app', '/app/links/lnk_1']) {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(503);
        expect(response.body).toContain('pnpm --filter @shortlinks/web build');
        expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      }
    } finally {
      await app.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('building the dashboard on start', () => {
  test('a build holds the hash of its inputs; with nothing changed, the check is quick and starts no build', async () => {
    const stamp = (await readFile(path.join(DASHBOARD_DIR, STAMP_FILE), 'utf8')).trim();
    expect(stamp).toBe(await inputsHash());
    const again = await ensureDashboardBuilt();
    expect(again.state).toBe('fresh');
    expect(again.ms).toBeLessThan(1_000);
  });

  test('a missing build is built, and a build made from other inputs is built again, whole', { timeout: 120_000 }, async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'shortlinks-dashboard-'));
    const outDir = path.join(parent, 'dist');
    try {
      const first = await ensureDashboardBuilt({ outDir });
      expect(first).toMatchObject({ state: 'built' });
      expect(await readFile(path.join(outDir, 'index.html'), 'utf8')).toContain('<div id="root">');
      expect((await readFile(path.join(outDir, STAMP_FILE), 'utf8')).trim()).toBe(await inputsHash());
      expect((await ensureDashboardBuilt({ outDir })).state).toBe('fresh');

      // As after a `git pull` that changed a source: the stamp no longer matches the inputs.
      await writeFile(path.join(outDir, STAMP_FILE), 'made-from-older-sources\n');
      await writeFile(path.join(outDir, 'left-from-the-old-build.txt'), 'old');
      expect((await ensureDashboardBuilt({ outDir })).state).toBe('built');
      expect((await readFile(path.join(outDir, STAMP_FILE), 'utf8')).trim()).toBe(await inputsHash());
      // The new build replaced the old folder; nothing of it, and no staging folder, is left.
      expect(await readdir(outDir)).not.toContain('left-from-the-old-build.txt');
      expect(await readdir(parent)).toEqual(['dist']);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
