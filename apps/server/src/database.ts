import { createOrm, migrate, type Orm } from '@shortlinks/db';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@shortlinks/db/embedded';
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
 * restore applies the backup's own).
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  log: (line: string) => void = () => {},
  { migrations = true }: { migrations?: boolean } = {},
): Promise<OpenDatabase> {
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: config.dataDir, log });
  const url = config.databaseUrl ?? embedded?.url;
  if (!url) throw new Error('no database');
  let orm: Orm | undefined;
  try {
    orm = await createOrm({ databaseUrl: url });
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
