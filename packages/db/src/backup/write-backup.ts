import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CONNECT_TIMEOUT_MS } from '../bounded-client.ts';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BackupError, type BackupHeader, countRows, frame } from './backup-format.ts';
import { copyTarget, schemaTables } from './schema-tables.ts';

/** Rows gathered into one data frame: fewer frames, and gzip sees more at once. */
const FRAME_BYTES = 64 * 1024;

export interface TableProgress {
  table: string;
  rows: number;
  /** Set once the table is complete. */
  done: boolean;
}

export interface BackupSummary {
  header: BackupHeader;
  rows: Record<string, number>;
}

/**
 * Writes a backup of the database at `databaseUrl` to `output`, gzip-compressed. Rows go through
 * COPY one table at a time, as fast as `output` takes them, so memory stays flat whatever the
 * size. Everything is read in one REPEATABLE READ READ ONLY transaction: the backup is one
 * consistent moment even while servers keep writing, and it blocks none of them.
 */
export async function writeBackup(
  databaseUrl: string,
  output: Writable,
  onProgress: (progress: TableProgress) => void = () => {},
): Promise<BackupSummary> {
  let summary: BackupSummary | undefined;
  async function* frames(): AsyncGenerator<Buffer> {
    const client = new pg.Client({
      connectionString: databaseUrl,
      application_name: 'shortlinks backup',
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query('begin isolation level repeatable read read only');
      const header = await readHeader(client);
      yield frame('H', header);
      const rows: Record<string, number> = {};
      for (const table of header.tables) {
        yield frame('T', { table: table.name });
        let count = 0;
        let batch: Buffer[] = [];
        let batchBytes = 0;
        const copy = client.query(copyTo(`copy ${copyTarget(table, pg.escapeIdentifier)} to stdout`));
        for await (const chunk of copy as AsyncIterable<Buffer>) {
          batch.push(chunk);
          batchBytes += chunk.length;
          count += countRows(chunk);
          if (batchBytes >= FRAME_BYTES) {
            yield frame('D', Buffer.concat(batch));
            batch = [];
            batchBytes = 0;
            onProgress({ table: table.name, rows: count, done: false });
          }
        }
        if (batchBytes > 0) yield frame('D', Buffer.concat(batch));
        rows[table.name] = count;
        onProgress({ table: table.name, rows: count, done: true });
        yield frame('E', { rows: count });
      }
      yield frame('Z');
      await client.query('commit');
      summary = { header, rows };
    } finally {
      await client.end().catch(() => {});
    }
  }
  await pipeline(frames(), createGzip(), output);
  if (!summary) throw new Error('the backup ended early');
  return summary;
}

async function readHeader(client: pg.Client): Promise<BackupHeader> {
  const hasMigrations = await client.query<{ found: boolean }>("select to_regclass('mikro_orm_migrations') is not null as found");
  if (!hasMigrations.rows[0]?.found) {
    throw new BackupError('NOTHING_TO_BACK_UP', 'the database has no Shortlinks schema (no migrations were ever applied to it)');
  }
  const migrations = await client.query<{ name: string }>('select name from mikro_orm_migrations order by id');
  const version = await client.query<{ server_version: string }>('show server_version');
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_FORMAT_VERSION,
    created_at: new Date().toISOString(),
    postgres: version.rows[0]?.server_version ?? 'unknown',
    migrations: migrations.rows.map((row) => row.name),
    tables: await schemaTables(client),
  };
}
