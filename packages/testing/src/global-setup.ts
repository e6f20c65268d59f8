import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import type { TestProject } from 'vitest/node';
import './test-database.ts'; // declares what this setup provides

export const TEMPLATE_DATABASE = 'shortlinks_template';

/**
 * Starts one real embedded PostgreSQL for the whole run and migrates a template database;
 * each test file then gets its own copy (CREATE DATABASE ... TEMPLATE), so files are
 * independent and run in parallel.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-test-'));
  const cluster = await startEmbeddedPostgres({ dataDir, database: TEMPLATE_DATABASE });
  const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 2 });
  await migrate(orm);
  await orm.close();

  project.provide('adminDatabaseUrl', cluster.adminUrl);
  project.provide('appDatabaseUrl', cluster.url);
  project.provide('templateDatabase', TEMPLATE_DATABASE);

  return async () => {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
