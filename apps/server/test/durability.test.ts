import { createServices } from '@shortlinks/api/services';
import { createOrm, type Orm } from '@shortlinks/db';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createTestDatabase } from './harness.ts';
import { freePort, isReady, startServerProcess, waitFor } from './processes.ts';

/**
 * The server process is killed (SIGKILL: no shutdown hook runs) in the middle of a burst of
 * concurrent creates. After a restart, every link that was answered 201 is there whole, and no
 * link exists half-written: a create is one transaction, so it is all there or not at all.
 */
describe('a burst of creates while the server is killed', () => {
  let orm: Orm;
  let key: string;
  let accountId: string;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    orm = await createOrm({ databaseUrl, poolSize: 2 });
    const services = createServices({ orm, shortDomain: 'https://sho.rt' });
    const account = await services.accounts.create({ name: 'Burst', plan: 'unlimited' });
    accountId = account.id;
    key = (await services.apiKeys.create(account.id)).secret;
    const port = await freePort();
    env = { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' };
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => orm.close());

  const ready = () => isReady(base);
  const tagsOf = (i: number) => [`burst-${i}-a`, `burst-${i}-b`, 'burst-shared'];

  test('every 201-answered link survives whole with its tags; nothing half-written exists', { timeout: 150_000 }, async () => {
    const first = startServerProcess(env);
    // Should the test fail early, no server is left running.
    onTestFinished(() => {
      if (first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
    });
    await waitFor(ready, 60_000, 'the server');

    const answered = new Map<number, string>();
    let next = 0;
    let killed = false;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const worker = async () => {
      while (!killed && next < 2_000) {
        const i = next++;
        try {
          const response = await fetch(`${base}/api/v1/links`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              title: `Burst ${i}`,
              destination_url: `https://example.com/burst/${i}`,
              external_id: `burst-${i}`,
              comments: `written by request ${i}`,
              tag_names: tagsOf(i),
            }),
          });
          const body = (await response.json()) as { id?: string };
          if (response.status === 201 && body.id) answered.set(i, body.id);
          else if (!killed) throw new Error(`create ${i} answered ${response.status}`);
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const workers = Array.from({ length: 24 }, worker);
    await waitFor(() => answered.size >= 40, 30_000, '40 creates');
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(workers);
    // A killed child has no exit code, only a signal: either means it has already exited.
    const exited = first.child.exitCode !== null || first.child.signalCode !== null;
    if (!exited) await new Promise((resolve) => first.child.once('exit', resolve));
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = startServerProcess(env);
    try {
      await waitFor(ready, 60_000, 'the restarted server');
      for (const [i, id] of answered) {
        const response = await fetch(`${base}/api/v1/links/${id}`, { headers });
        expect(response.status, `link ${i}`).toBe(200);
        const link = (await response.json()) as Record<string, unknown> & { tags: { name: string }[] };
        expect(link).toMatchObject({
          id,
          title: `Burst ${i}`,
          destination_url: `https://example.com/burst/${i}`,
          external_id: `burst-${i}`,
          comments: `written by request ${i}`,
        });
        expect(link.tags.map((tag) => tag.name).sort()).toEqual([...tagsOf(i)].sort());
      }

      // Every link in the database, answered or not, is whole: its own fields and all three tags.
      const rows = (await orm.em
        .fork()
        .getConnection()
        .execute(
          `select l.title, l.destination_url, l.external_id, l.comments,
                  array(select t.name from link_tag lt join tag t on t.id = lt.tag_id where lt.link_id = l.id order by t.name) as tags
           from link l where l.account_id = ?`,
          [accountId],
        )) as { title: string; destination_url: string; external_id: string; comments: string; tags: string[] }[];
      expect(rows.length).toBeGreaterThanOrEqual(answered.size);
      for (const row of rows) {
        const i = Number(/^Burst (\d+)$/.exec(row.title)?.[1]);
        expect(row).toEqual({
          title: `Burst ${i}`,
          destination_url: `https://example.com/burst/${i}`,
          external_id: `burst-${i}`,
          comments: `written by request ${i}`,
          tags: [...tagsOf(i)].sort(),
        });
      }
      const shared = await orm.em.fork().getConnection().execute(`select count(*)::int as n from tag where name = 'burst-shared'`);
      expect(shared[0]).toEqual({ n: 1 });
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
    }
  });
});
