import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, inject, test } from 'vitest';
import { readConfig } from '../src/env.ts';
import { freePort, startServerProcess, waitFor } from './processes.ts';

/** Issue #2's configuration: defaults, SHORT_DOMAIN, and DATABASE_URL naming the server to use. */

describe('environment defaults', () => {
  test('PORT 3000, and SHORT_DOMAIN http://localhost:$PORT', () => {
    expect(readConfig({}, '/repo').config).toMatchObject({ port: 3000, shortDomain: 'http://localhost:3000', dataDir: '/repo/.data' });
    expect(readConfig({ PORT: '4123' }, '/repo').config?.shortDomain).toBe('http://localhost:4123');
  });

  test('SHORT_DOMAIN is an origin: a trailing slash is dropped, a path refused', () => {
    expect(readConfig({ SHORT_DOMAIN: 'https://sho.rt/' }).config?.shortDomain).toBe('https://sho.rt');
    expect(readConfig({ SHORT_DOMAIN: 'https://sho.rt/links' }).problems).toEqual([expect.stringMatching(/^SHORT_DOMAIN/)]);
  });
});

/** A new, empty database on the test cluster (no tables: the server must migrate it). */
async function emptyDatabase(): Promise<string> {
  const name = `external_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return url.href;
}

describe('DATABASE_URL set', () => {
  test('the server uses that database (no embedded PostgreSQL), migrates it and prints the first key', { timeout: 60_000 }, async () => {
    const databaseUrl = await emptyDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-external-'));
    const port = await freePort();
    const server = startServerProcess({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SHORT_DOMAIN: 'https://sho.rt',
    });
    try {
      await waitFor(() => /slk_[A-Za-z0-9_-]{20,}/.test(server.output()), 30_000, 'the first key');
      expect(server.output()).toContain('database: DATABASE_URL');
      const key = /slk_[A-Za-z0-9_-]+/.exec(server.output())?.[0];
      const created = await fetch(`http://127.0.0.1:${port}/api/v1/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'External', destination_url: 'https://example.com/external' }),
      });
      expect(created.status).toBe(201);
      const link = (await created.json()) as { slug: string; short_url: string };
      expect(link.short_url).toBe(`https://sho.rt/${link.slug}`);
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
