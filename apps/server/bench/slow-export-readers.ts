/**
 * `pnpm bench:slow-exports`: the server's memory under slow export readers (issue #31, item 2;
 * docs/performance.md, "Slow export readers").
 *
 * A starter account's 1,000 links filled to the field limits are generated in a fresh embedded
 * PostgreSQL. For each scenario a server starts in a process of its own; once idle its RSS is
 * read, then the readers connect on raw sockets and the server's RSS is sampled from /proc every
 * 250 ms for BENCH_SECONDS (default 60):
 *   - trickle: 40 × GET /api/v1/links/export?format=jsonl, each taking 256 bytes every 10 s;
 *   - stalled: 40 of the same that read nothing;
 *   - trpc: 4 tRPC batches of ten exports each (httpBatchStreamLink's request), reading nothing.
 * At the end: how the readers were answered (status), what they read, and how many exports the
 * server ended as too slow (its log says each).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'trickle,stalled,trpc').split(',');
const serverDir = path.resolve(import.meta.dirname, '..');
/** Exports each server ended as read too slowly, from its log. */
const ended = new Map<ChildProcess, number>();

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-slow-exports-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 4 });
await migrate(orm);
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const account = await services.accounts.create({ name: 'Full starter', plan: 'starter' });
const { secret } = await services.apiKeys.create(account.id);
await seedFullSize(account.id);

try {
  for (const scenario of SCENARIOS) await run(scenario);
} finally {
  await orm.close();
  await cluster.stop();
}

async function run(scenario: string) {
  const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/slow-export-server.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: cluster.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await portOf(server);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const idle = await rssMiB(server.pid ?? 0);
  let peak = idle;
  const sampler = setInterval(async () => {
    peak = Math.max(peak, await rssMiB(server.pid ?? 0).catch(() => 0));
  }, 250);
  const readers =
    scenario === 'trpc'
      ? Array.from({ length: 4 }, () => slowReader(port, trpcBatch(10), 0))
      : Array.from({ length: 40 }, () => slowReader(port, restExport(), scenario === 'trickle' ? 256 : 0));
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  clearInterval(sampler);
  const last = await rssMiB(server.pid ?? 0);
  const answers = readers.map((reader) => reader.stop());
  server.kill('SIGTERM');
  await once(server, 'exit');
  const statuses = count(answers.map((answer) => answer.status));
  const endedBySlowRule = ended.get(server) ?? 0;
  const read = answers.reduce((sum, answer) => sum + answer.bytes, 0);
  console.log(
    `${scenario.padEnd(8)} idle ${idle} MiB, peak ${peak} MiB (+${peak - idle}), after ${SECONDS} s ${last} MiB; ` +
      `answers ${JSON.stringify(statuses)}, ended as too slow ${endedBySlowRule}, read ${(read / 2 ** 20).toFixed(1)} MiB`,
  );
}

function restExport(): string {
  return `GET /api/v1/links/export?format=jsonl HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${secret}\r\n\r\n`;
}

function trpcBatch(calls: number): string {
  const paths = Array.from({ length: calls }, () => 'links.export').join(',');
  const input = Object.fromEntries(Array.from({ length: calls }, (_, i) => [i, { format: 'jsonl' }]));
  const query = `batch=1&input=${encodeURIComponent(JSON.stringify(input))}`;
  return `GET /trpc/${paths}?${query} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer ${secret}\r\ntrpc-accept: application/jsonl\r\n\r\n`;
}

/** A socket that sends `request`, then takes `bytesPer10s` of the answer every 10 s (0: nothing). */
function slowReader(port: number, request: string, bytesPer10s: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  socket.write(request);
  socket.pause();
  let head = '';
  let bytes = 0;
  socket.on('error', () => {});
  const take = (n: number) => {
    const chunk = socket.read(n) ?? socket.read();
    if (!chunk) return;
    bytes += chunk.length;
    if (head.length < 200) head += chunk.toString('latin1');
  };
  // The status line arrives with the first bytes; a reader that reads nothing still peeks at it.
  const peek = setInterval(() => {
    if (head.length >= 12) clearInterval(peek);
    else take(64);
  }, 500);
  const timer = bytesPer10s > 0 ? setInterval(() => take(bytesPer10s), 10_000) : undefined;
  return {
    stop() {
      clearInterval(timer);
      clearInterval(peek);
      socket.destroy();
      return { status: /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'none', bytes };
    },
  };
}

/** The port the server prints, and its log so far (a line per export it ended as too slow). */
async function portOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      ended.set(child, (output.match(/ended an answer whose reader/g) ?? []).length);
      const port = /port (\d+)/.exec(output)?.[1];
      if (port) resolve(Number(port));
    });
    child.once('exit', () => reject(new Error(`the server did not start: ${output}`)));
  });
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
}

function count(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * 1,000 links, every field at its limit: 64-character slugs, 2,048-character URLs and comments,
 * 200-character titles and 255-character external ids, 10 tags of 50 characters each. Titles and
 * comments are quotes and backslashes, which JSON Lines escapes, as the heaviest rows would be.
 */
async function seedFullSize(accountId: string): Promise<void> {
  const url = (what: string) => {
    const start = `https://example.com/${what}?q=`;
    return `'${start}' || repeat('x', ${2048 - start.length - 5}) || lpad(g::text, 5, '0')`;
  };
  await orm.em
    .fork()
    .getConnection()
    .execute(
      `insert into tag (id, account_id, name, color)
       select 'tag_full' || g, '${accountId}', repeat('t', 48) || lpad(g::text, 2, '0'), 'indigo' from generate_series(0, 9) g;
       insert into link (id, account_id, slug, destination_url, title, external_id, comments, expires_at, expiration_url, created_at)
       select 'lnk_full' || g, '${accountId}', 's' || lpad(g::text, 63, '0'), ${url('to')}, repeat('"\\', 100),
              repeat('e', 250) || lpad(g::text, 5, '0'), repeat('"\\', 1024), now() + interval '30 days', ${url('gone')},
              timestamptz '2025-01-01' + g * interval '1 second'
       from generate_series(1, 1000) g;
       insert into link_tag (link_id, tag_id) select 'lnk_full' || g, 'tag_full' || t from generate_series(1, 1000) g, generate_series(0, 9) t;
       analyze link; analyze link_tag;`,
    );
}
