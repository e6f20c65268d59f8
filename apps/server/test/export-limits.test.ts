import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';

/**
 * Slow export readers (issue #31): an export is written in small chunks under backpressure, an
 * account runs at most EXPORTS_PER_ACCOUNT at once (REST and tRPC calls alike), and one whose
 * reader takes too little for too long is ended. Readers are raw sockets that stop reading.
 */
const SLOW = { perAccount: 3, slowBytes: 1024 * 1024, slowMs: 2_000 };

let server: TestServer;
let big: TestAccount;
let small: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ exportLimits: SLOW });
  big = await createAccount(server, { plan: 'unlimited' });
  small = await createAccount(server, { plan: 'unlimited' });
  await seedFullSize(server, big, 3000);
  await seedFullSize(server, small, 2);
}, 120_000);
afterAll(() => server.close());

/**
 * Links with every field at its limit (2,048-character URLs and comments, 200-character titles,
 * 255-character external ids): about 10 KB each as JSON Lines, 3,000 of them more than the
 * loopback's socket buffers hold, so a reader that stops holds the export up.
 */
async function seedFullSize(server: TestServer, account: TestAccount, links: number) {
  const url = (what: string) => `'https://example.com/${what}?q=' || repeat('x', 2000) || g`;
  const id = account.account.id;
  await server.orm.em
    .fork()
    .getConnection()
    .execute(
      `insert into link (id, account_id, slug, destination_url, title, external_id, comments, expires_at, expiration_url)
       select 'lnk_' || '${id}' || g, '${id}', '${id.slice(-6)}-' || g, ${url('to')}, repeat('"\\', 100),
              repeat('e', 250) || g, repeat('"\\', 1024), now() + interval '30 days', ${url('gone')}
       from generate_series(1, ${links}) g`,
    );
}

/** A raw HTTP/1.1 GET that reads its answer only when asked (`take`), as a slow client would. */
function slowReader(path: string, key: string, headers: Record<string, string> = {}, on = server) {
  const socket = net.connect(Number(new URL(on.origin).port), '127.0.0.1');
  const lines = Object.entries({ host: 'test', authorization: `Bearer ${key}`, ...headers }).map(([name, value]) => `${name}: ${value}`);
  socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  socket.pause();
  const parts: Buffer[] = [];
  let received = Buffer.alloc(0);
  const ended = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', () => resolve());
    socket.on('error', () => resolve());
  });
  return {
    socket,
    /** Reads up to `bytes` of what has arrived. */
    take(bytes: number) {
      const chunk = (socket.read(bytes) ?? socket.read()) as Buffer | null;
      if (chunk) received = Buffer.concat([received, chunk]);
      return received;
    },
    /** The status line, once it has arrived. */
    async status() {
      await waitFor(() => this.take(64).includes('\r\n'), 10_000, 'the status line');
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(received.toString('latin1'))?.[1]);
    },
    /** Reads everything until the server ends the connection (which a stopped reader never sees: the socket is paused). */
    async drainUntilEnded() {
      parts.push(received);
      socket.on('data', (chunk: Buffer) => parts.push(chunk));
      socket.resume();
      await ended;
      received = Buffer.concat(parts);
      return received;
    },
  };
}

const exportUrl = () => `${server.api}/links/export?format=jsonl`;
const trpcExports = (count: number) => {
  const input = Object.fromEntries(Array.from({ length: count }, (_, i) => [i, { format: 'jsonl' }]));
  return `/trpc/${Array.from({ length: count }, () => 'links.export').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
};

/** An HTTP/1.1 answer's chunked body: the size of each chunk, in order, and the body they make. */
function chunked(answer: Buffer): { sizes: number[]; body: Buffer } {
  let at = answer.indexOf('\r\n\r\n') + 4;
  const sizes: number[] = [];
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = answer.indexOf('\r\n', at);
    const size = Number.parseInt(answer.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return { sizes, body: Buffer.concat(parts) };
    sizes.push(size);
    parts.push(answer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

describe('what an export holds', () => {
  test('the file is written in chunks of a few KiB, never a page of links at once', async () => {
    const reader = slowReader('/api/v1/links/export?format=jsonl', big.key, { connection: 'close' });
    expect(await reader.status()).toBe(200);
    const { sizes, body } = chunked(await reader.drainUntilEnded());
    expect(body.toString('utf8').split('\n').length).toBe(3001);
    // A line is about 10 KB; a chunk holds lines up to 16 KiB of text, and never a page of them.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64 * 1024);
  }, 60_000);
});

describe('a reader that stops', () => {
  test('a reader that reads nothing is ended once it took less than the slow-reader rule in its period', async () => {
    const reader = slowReader('/api/v1/links/export?format=jsonl', big.key);
    expect(await reader.status()).toBe(200);
    // Paused, the socket hears of the end only when it reads: it reads everything left once the
    // rule has had two periods to fire. The server cut it short: the file is 30 MB, of which the
    // socket buffers held a part.
    await new Promise((resolve) => setTimeout(resolve, 2 * SLOW.slowMs + 1_000));
    const answer = await reader.drainUntilEnded();
    expect(answer.length).toBeLessThan(25 * 1024 * 1024);
  }, 30_000);

  test('a reader taking a few bytes now and then is ended too; one that keeps up gets the whole file', async () => {
    const trickle = slowReader('/api/v1/links/export?format=jsonl', big.key);
    expect(await trickle.status()).toBe(200);
    const timer = setInterval(() => trickle.take(256), 200);
    const closed = new Promise((resolve) => trickle.socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 2 * SLOW.slowMs + 1_000));
    clearInterval(timer);
    const answer = await trickle.drainUntilEnded();
    await closed;
    expect(answer.length).toBeLessThan(25 * 1024 * 1024);

    const fast = await fetch(exportUrl(), { headers: { authorization: `Bearer ${big.key}` } });
    expect((await fast.text()).split('\n').length).toBe(3001);
  }, 30_000);
});

describe('exports one account runs at once', () => {
  // A server whose slow-reader rule cannot fire during a test: the readers below hold their slots.
  let capped: TestServer;
  let holder: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    capped = await startTestServer({ exportLimits: { perAccount: 3, slowBytes: 1024, slowMs: 600_000 } });
    holder = await createAccount(capped, { plan: 'unlimited' });
    other = await createAccount(capped, { plan: 'unlimited' });
    await seedFullSize(capped, holder, 3000);
    await seedFullSize(capped, other, 2);
  }, 120_000);
  afterAll(() => capped.close());
  const exportOn = (account: TestAccount, format = 'jsonl') =>
    fetch(`${capped.api}/links/export?format=${format}`, {
      headers: { authorization: `Bearer ${account.key}` },
      signal: AbortSignal.timeout(10_000),
    });
  const trpcOn = (account: TestAccount, count: number) =>
    fetch(`${capped.origin}${trpcExports(count)}`, {
      headers: { authorization: `Bearer ${account.key}`, 'trpc-accept': 'application/jsonl' },
    });

  test('over the cap: 429 RATE_LIMITED with Retry-After; another account is not held up; a slot frees when an export ends', async () => {
    const readers = [0, 1, 2].map(() => slowReader('/api/v1/links/export?format=jsonl', holder.key, {}, capped));
    for (const reader of readers) expect(await reader.status()).toBe(200);

    const refused = await exportOn(holder, 'csv');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({ code: 'RATE_LIMITED', message: expect.stringContaining('3 of its 3 exports at once') });
    // tRPC's exports count against the same cap.
    expect((await trpcOn(holder, 1)).status).toBe(429);

    const notHeldUp = await exportOn(other);
    expect(notHeldUp.status).toBe(200);
    await notHeldUp.text();

    readers[0]?.socket.destroy();
    await waitFor(
      async () => {
        const again = await exportOn(holder);
        await again.body?.cancel();
        return again.status === 200;
      },
      10_000,
      'a slot freed by the closed connection',
    );
    for (const reader of readers) reader.socket.destroy();
  }, 30_000);

  test('a tRPC batch takes a slot per export: two are streamed, ten at once are refused and none runs', async () => {
    const two = await trpcOn(other, 2);
    expect(two.status).toBe(200);
    expect(await two.text()).toContain(`${other.account.id.slice(-6)}-1`);

    const ten = await trpcOn(other, 10);
    expect(ten.status).toBe(429);
    expect(ten.headers.get('retry-after')).toBe('5');
    expect(((await ten.json()) as { error: { data: unknown } }).error.data).toMatchObject({ appCode: 'RATE_LIMITED', httpStatus: 429 });
  }, 30_000);
});
