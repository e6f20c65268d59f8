import { createOrm, migrate, type Orm } from '@shortlinks/db';
import { type EmbeddedDatabase, type Supervision, startEmbeddedPostgres } from '@shortlinks/db/embedded';
import type { Config } from './env.ts';

export interface OpenDatabase {
  orm: Orm;
  /** Set when the database is the embedded one. */
  embedded: EmbeddedDatabase | undefined;
  /** Migrations applied by this start. */
  applied: string[];
  url: string;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under DATA_DIR when it is unset,
 * and applies pending migrations (unless `migrations: false`: a backup changes nothing, and a
 * restore applies the backup's own). An embedded cluster this process starts is restarted if it
 * dies (`supervise`); an external one is its operator's to run.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databaseQueryTimeoutMs'>>,
  log: (line: string) => void = () => {},
  { migrations = true, supervise }: { migrations?: boolean; supervise?: Supervision } = {},
): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, log, ...(supervise ? { supervise } : {}) });
  const url = config.databaseUrl ?? embedded?.url;
  if (!url) throw new Error('no database');
  let orm: Orm | undefined;
  try {
    orm = await createOrm({ databaseUrl: url, queryTimeoutMs: config.databaseQueryTimeoutMs });
    const applied = migrations ? await migrate(orm) : [];
    const connected = orm;
    return {
      orm: connected,
      embedded,
      applied,
      url,
      close: async () => {
        await connected.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await orm?.close().catch(() => {});
    await embedded?.stop();
    throw error;
  }
}
