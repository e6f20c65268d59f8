import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UrlReputation } from '@shortlinks/api/destinations';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Request timeouts and the connection cap, over raw sockets (node:net), so that what a client sees
 * on the wire — an answer, a close, or nothing — is what is asserted. The timeouts are shortened
 * (the production ones are 30 s for a request, 20 s for its headers, 60 s idle).
 */

const LIMITS = { requestMs: 800, headersMs: 500, idleMs: 2_000, checkIntervalMs: 50 };
/** Node checks requests in progress every checkIntervalMs; the rest is a busy machine's scheduling. */
const LATE_BY_AT_MOST = 1_000;

/** Clean, after `?wait=` milliseconds: an answer that takes as long as the test wants. */
const slowReputation: UrlReputation = {
  check: async (url) => {
    await sleep(Number(new URL(url).searchParams.get('wait') ?? 0));
    return { flagged: false };
  },
};

let server: TestServer;
let account: TestAccount;
let port: number;

beforeAll(async () => {
  server = await startTestServer({ connectionLimits: LIMITS, reputation: slowReputation });
  account = await createAccount(server);
  port = Number(new URL(server.origin).port);
});
afterAll(() => server.close());

interface Exchange {
  /** Everything the server sent before it closed the connection. */
  received: string;
  /** Milliseconds from connecting until the server closed the connection (or the wait ran out). */
  elapsed: number;
  closedByServer: boolean;
}

/**
 * Opens a connection, writes each step's bytes after its pause, and waits (at most `waitMs`) for
 * the server to close it.
 */
function exchange(port: number, steps: { after?: number; send: string }[], waitMs = 5_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ received, elapsed: Date.now() - started, closedByServer: false });
    }, waitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ received, elapsed: Date.now() - started, closedByServer: true });
    });
    socket.on('connect', async () => {
      for (const step of steps) {
        if (step.after) await sleep(step.after);
        if (!socket.destroyed) socket.write(step.send);
      }
    });
  });
}

/** The last response's JSON body. */
function lastBody(received: string): unknown {
  const body = received.slice(received.lastIndexOf('\r\n\r\n') + 4);
  return JSON.parse(body);
}

/** Status lines in order; a response follows the previous body directly, on the same line. */
const statusLines = (received: string) => received.match(/HTTP\/1\.1 \d{3}(?= [A-Z])/g) ?? [];

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('a request that does not arrive in time', () => {
  test.each([
    ['tRPC, without a key', '/trpc/links.create', false],
    ['REST, with a valid key', '/api/v1/links', true],
  ])(
    '%s: a body that never comes → 408 REQUEST_TIMEOUT after the request timeout, and the connection is closed',
    async (_, path, withKey) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': 100 };
      if (withKey) headers.authorization = `Bearer ${account.key}`;
      const links = await countRows(server, 'link');

      const { received, elapsed, closedByServer } = await exchange(port, [{ send: head('POST', path, headers) }]);

      expect(closedByServer).toBe(true);
      expect(statusLines(received)).toEqual(['HTTP/1.1 408']);
      expect(received).toMatch(/\r\nConnection: close\r\n/i);
      expect(lastBody(received)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String) });
      expect(elapsed).toBeGreaterThanOrEqual(LIMITS.requestMs - 50);
      expect(elapsed).toBeLessThan(LIMITS.requestMs + LATE_BY_AT_MOST);
      expect(await countRows(server, 'link')).toBe(links);
    },
  );

  test.each([
    ['REST without a key: 401', '/api/v1/links', {}, 'HTTP/1.1 401', 'UNAUTHORIZED'],
    ['a Content-Length over 64 KiB: 413', '/api/v1/links', { withKey: true, length: 100_000 }, 'HTTP/1.1 413', 'PAYLOAD_TOO_LARGE'],
    ['tRPC, a Content-Length over 64 KiB: 413', '/trpc/links.create', { withKey: true, length: 100_000 }, 'HTTP/1.1 413', undefined],
  ])('answered before its body came (%s): the connection is closed at once, with no second answer', async (_, path, how, status, code) => {
    const { withKey = false, length = 100 } = how as { withKey?: boolean; length?: number };
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': length };
    if (withKey) headers.authorization = `Bearer ${account.key}`;
    const { received, elapsed, closedByServer } = await exchange(port, [{ send: head('POST', path, headers) }]);

    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual([status]);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    if (code) expect(lastBody(received)).toEqual({ code, message: expect.any(String) });
    expect(elapsed).toBeLessThan(LIMITS.requestMs);
  });

  test('a cached short link visited with a body that never comes: 302 at once, then the connection is closed, no 408', async () => {
    const created = await account.call('POST', '/links', {
      title: 'Visited with a body',
      slug: 'visit-with-body',
      destination_url: 'https://example.com/with-body',
    });
    expect(created.body).toMatchObject({ slug: 'visit-with-body' });
    // The first visit caches the link: the next is one the fast path (src/redirects/fast-redirects.ts) would answer.
    expect((await fetch(`${server.origin}/visit-with-body`, { redirect: 'manual' })).status).toBe(302);
    const { received, elapsed, closedByServer } = await exchange(port, [
      { send: head('GET', '/visit-with-body', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'content-length': 100 }) },
    ]);

    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual(['HTTP/1.1 302']);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(elapsed).toBeLessThan(LIMITS.requestMs);
  });

  test('a body trickling in, each byte in time but the whole too late, is cut off the same way', async () => {
    const body = JSON.stringify({ title: 'Trickled', destination_url: 'https://example.com/trickled' });
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json', 'content-length': body.length };
    const pieces = body.match(/.{1,4}/g) ?? [];
    const steps = [{ send: head('POST', '/api/v1/links', headers) }, ...pieces.map((piece) => ({ after: 100, send: piece }))];

    const { received, closedByServer, elapsed } = await exchange(port, steps);

    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual(['HTTP/1.1 408']);
    expect(elapsed).toBeLessThan(LIMITS.requestMs + LATE_BY_AT_MOST);
    expect(await countRows(server, 'link', `title = 'Trickled'`)).toBe(0);
  });

  test('headers that never end → 408 REQUEST_TIMEOUT after the headers timeout', async () => {
    const { received, elapsed, closedByServer } = await exchange(port, [{ send: 'GET /api/v1/links HTTP/1.1\r\nHost: 127.0.0.1\r\n' }]);

    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual(['HTTP/1.1 408']);
    expect(lastBody(received)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String) });
    expect(elapsed).toBeGreaterThanOrEqual(LIMITS.headersMs - 50);
    expect(elapsed).toBeLessThan(LIMITS.headersMs + LATE_BY_AT_MOST);
  });
});

describe('what the timeouts leave alone', () => {
  test('the time to answer does not count: a create whose URL check outlasts the request timeout is answered 201', async () => {
    const wait = LIMITS.requestMs + 700;
    const response = await account.call('POST', '/links', {
      title: 'Slow check',
      destination_url: `https://example.com/slow?wait=${wait}`,
    });
    expect(response.status).toBe(201);
  });

  test('keep-alive: requests on one connection, further apart than the request timeout, are all answered', async () => {
    const get = head('GET', '/api/v1/tags', { authorization: `Bearer ${account.key}` });
    const pause = LIMITS.requestMs + 400;
    const { received, closedByServer } = await exchange(
      port,
      [{ send: get }, { after: pause, send: get }, { after: pause, send: get }],
      3 * pause + 500,
    );
    expect(closedByServer).toBe(false);
    expect(statusLines(received)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  test('keep-alive: requests without a body keep their connection, whichever part of the server answers them', async () => {
    const paths = ['/api/v1/openapi.json', '/docs/', '/api/v1/no-such-path', '/trpc/tags.list?input=%7B%7D', '/healthz', '/no-such-slug'];
    const steps = paths.map((path, i) => ({
      after: i === 0 ? 0 : 150,
      send: head('GET', path, { authorization: `Bearer ${account.key}` }),
    }));
    const { received, closedByServer } = await exchange(port, steps, paths.length * 150 + 500);
    expect(closedByServer).toBe(false);
    expect(statusLines(received)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 404', 'HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 404']);
    expect(received).not.toMatch(/\r\nconnection: close\r\n/i);
  });

  test('a later request on a kept-alive connection whose body never comes is timed from its own start', async () => {
    const get = head('GET', '/api/v1/tags', { authorization: `Bearer ${account.key}` });
    const stalled = head('POST', '/api/v1/links', {
      authorization: `Bearer ${account.key}`,
      'content-type': 'application/json',
      'content-length': 100,
    });
    const pause = LIMITS.requestMs + 400;
    const { received, elapsed, closedByServer } = await exchange(port, [{ send: get }, { after: pause, send: stalled }]);
    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 408']);
    expect(elapsed).toBeGreaterThanOrEqual(pause + LIMITS.requestMs - 50);
  });

  test('an answer that has not started after the idle timeout is given up: the connection closes without one', async () => {
    const body = JSON.stringify({ title: 'Too slow', destination_url: `https://example.com/slow?wait=${LIMITS.idleMs + 1_000}` });
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json', 'content-length': body.length };
    const { received, elapsed, closedByServer } = await exchange(port, [{ send: head('POST', '/api/v1/links', headers) + body }]);
    expect(closedByServer).toBe(true);
    expect(received).toBe('');
    expect(elapsed).toBeGreaterThanOrEqual(LIMITS.idleMs - 50);
    expect(elapsed).toBeLessThan(LIMITS.idleMs + LATE_BY_AT_MOST);
    // The create itself goes on; let it end before the next test.
    await sleep(1_200);
  });
});

describe('over the rate limit before the body came', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ connectionLimits: LIMITS, rateLimits: { anonymous: 1 } });
  });
  afterAll(() => limited.close());

  test('429 closes the connection at once, as the 401 does', async () => {
    const limitedPort = Number(new URL(limited.origin).port);
    const stalled = head('POST', '/trpc/links.create', { 'content-type': 'application/json', 'content-length': 100 });
    await exchange(limitedPort, [{ send: head('GET', '/api/v1/links', { connection: 'close' }) }]);

    const { received, elapsed, closedByServer } = await exchange(limitedPort, [{ send: stalled }]);
    expect(closedByServer).toBe(true);
    expect(statusLines(received)).toEqual(['HTTP/1.1 429']);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(elapsed).toBeLessThan(LIMITS.requestMs);
  });
});

describe('MAX_CONNECTIONS', () => {
  let capped: TestServer;
  const warnings: string[] = [];

  beforeAll(async () => {
    capped = await startTestServer({
      connectionLimits: { ...LIMITS, maxConnections: 2 },
      logStream: { write: (line) => warnings.push(line) },
    });
  });
  afterAll(() => capped.close());

  test('a connection over the cap is closed at once without an answer, a warning is logged, and room comes back when one closes', async () => {
    const cappedPort = Number(new URL(capped.origin).port);
    const open = () => {
      const socket = connect(cappedPort, '127.0.0.1');
      return new Promise<typeof socket>((resolve) => socket.on('connect', () => resolve(socket)));
    };
    const first = await open();
    const second = await open();
    try {
      await sleep(100);
      const over = await exchange(cappedPort, [{ send: head('GET', '/healthz', {}) }], 2_000);
      expect(over.closedByServer).toBe(true);
      expect(over.received).toBe('');
      expect(warnings.join('')).toContain('MAX_CONNECTIONS (2)');

      first.destroy();
      await sleep(100);
      const room = await exchange(cappedPort, [{ send: head('GET', '/healthz', { connection: 'close' }) }], 2_000);
      expect(statusLines(room.received)).toEqual(['HTTP/1.1 200']);
    } finally {
      first.destroy();
      second.destroy();
    }
  });
});
