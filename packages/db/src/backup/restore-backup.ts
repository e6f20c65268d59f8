import { pipeline as pipe, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CONNECT_TIMEOUT_MS } from '../bounded-client.ts';
import { SCHEMA_LOCK_KEY } from '../migration-lock.ts';
import { migrationsList } from '../migrations/index.ts';
import { createOrm } from '../orm.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  type BackupHeader,
  countRows,
  type Frame,
  type FrameType,
  parseJson,
  readFrames,
} from './backup-format.ts';
import { copyTarget, schemaSequences, schemaTables } from './schema-tables.ts';
import type { TableProgress } from './write-backup.ts';

export interface RestoreSummary {
  header: BackupHeader;
  rows: Record<string, number>;
  /** Migrations newer than the backup, applied after its rows were loaded. */
  upgraded: string[];
}

/**
 * Restores a backup into the EMPTY database at `databaseUrl`, in one transaction: the migrations
 * the backup was taken at, every table's rows through COPY (user triggers off, so derived tables
 * and announcements are loaded as they were, not made again), sequences moved past the loaded
 * ids, then any newer migrations. Whatever fails (a damaged or truncated file, a database that is
 * not empty) rolls back everything: the database is left as it was.
 *
 * The transaction holds the schema lock (migration-lock.ts): a server started on this database
 * meanwhile waits, then finds the restored database migrated.
 */
export async function restoreBackup(
  databaseUrl: string,
  input: Readable,
  onProgress: (progress: TableProgress) => void = () => {},
): Promise<RestoreSummary> {
  const frames = readFrames(decompressed(input))[Symbol.asyncIterator]();
  const header = readHeader(await firstFrame(frames));

  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: 'shortlinks restore',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on('error', () => {});
  await client.connect();
  const orm = await createOrm({ databaseUrl, connection: client }).catch(async (error) => {
    await client.end();
    throw error;
  });
  const connection = orm.em.getConnection();
  const transaction = await connection.begin();
  try {
    await client.query(`select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`);
    await refuseUnlessEmpty(client);
    await orm.migrator.up({ to: header.migrations.at(-1), transaction });
    await checkSchema(client, header);

    const quote = pg.escapeIdentifier;
    const tables = header.tables.map((table) => quote(table.name));
    // The migrations may have written rows of their own; the backup's take their place.
    await client.query(`truncate ${tables.join(', ')}`);
    for (const table of tables) await client.query(`alter table ${table} disable trigger user`);
    const rows: Record<string, number> = {};
    for (const table of header.tables) {
      const started = await nextFrame(frames, 'T');
      if (parseJson<{ table?: string }>(started, 'a table frame').table !== table.name) {
        throw new BackupError('CORRUPT', `the file is damaged (table ${table.name} expected)`);
      }
      rows[table.name] = await loadTable(client, frames, copyTarget(table, quote), (count) =>
        onProgress({ table: table.name, rows: count, done: false }),
      );
      onProgress({ table: table.name, rows: rows[table.name] ?? 0, done: true });
    }
    await nextFrame(frames, 'Z');
    if (!(await frames.next()).done) throw new BackupError('CORRUPT', 'the file is damaged (data after its end)');
    for (const table of tables) await client.query(`alter table ${table} enable trigger user`);
    for (const { table, column, sequence } of await schemaSequences(client)) {
      await client.query(`select setval($1, coalesce((select max(${quote(column)}) from ${quote(table)}), 0) + 1, false)`, [sequence]);
    }

    const upgraded = await orm.migrator.up({ transaction });
    await connection.commit(transaction);
    return { header, rows, upgraded: upgraded.map((migration) => migration.name) };
  } catch (error) {
    await connection.rollback(transaction).catch(() => {});
    throw error;
  } finally {
    await orm.close();
    await client.end().catch(() => {});
  }
}

/** The file's bytes unzipped; gzip's own complaints become what they mean for a backup. */
async function* decompressed(input: Readable): AsyncGenerator<Buffer> {
  let seen = false;
  try {
    for await (const chunk of pipe(input, createGunzip(), () => {}) as AsyncIterable<Buffer>) {
      seen = true;
      yield chunk;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'Z_BUF_ERROR') throw new BackupError('TRUNCATED', 'the file ends early (was it copied whole?)');
    if (code === 'Z_DATA_ERROR' && !seen) throw new BackupError('NOT_A_BACKUP', 'not a Shortlinks backup (not gzip-compressed)');
    if (code === 'Z_DATA_ERROR') throw new BackupError('CORRUPT', `the file is damaged (${(error as Error).message})`);
    throw error;
  }
}

async function firstFrame(frames: AsyncIterator<Frame>): Promise<Frame> {
  try {
    const first = await frames.next();
    if (!first.done && first.value.type === 'H') return first.value;
  } catch (error) {
    if (!(error instanceof BackupError) || error.code === 'NOT_A_BACKUP') throw error;
  }
  throw new BackupError('NOT_A_BACKUP', 'not a Shortlinks backup (no backup header)');
}

async function nextFrame(frames: AsyncIterator<Frame>, type: FrameType): Promise<Frame> {
  const next = await frames.next();
  if (next.done) throw new BackupError('TRUNCATED', 'the file ends early (was it copied whole?)');
  if (next.value.type !== type) throw new BackupError('CORRUPT', `the file is damaged (frame ${next.value.type} where ${type} belongs)`);
  return next.value;
}

/** What the header promises, checked against what this build can restore, before anything is written. */
function readHeader(frame: Frame): BackupHeader {
  const header = parseJson<Partial<BackupHeader>>(frame, 'the header');
  if (header.format !== BACKUP_FORMAT) throw new BackupError('NOT_A_BACKUP', 'not a Shortlinks backup (unknown header)');
  if (header.version !== BACKUP_FORMAT_VERSION) {
    throw new BackupError(
      'UNSUPPORTED_FORMAT_VERSION',
      `the backup is in format version ${String(header.version)}; this build reads version ${BACKUP_FORMAT_VERSION} (restore it with the Shortlinks release that wrote it, or a newer one)`,
    );
  }
  const migrations = header.migrations;
  const tables = header.tables;
  if (!Array.isArray(migrations) || migrations.length === 0 || !Array.isArray(tables)) {
    throw new BackupError('CORRUPT', 'the file is damaged (the header lists no migrations or tables)');
  }
  const known = migrationsList.map((migration) => migration.name);
  const unknown = migrations.find((name) => !known.includes(name));
  if (unknown) {
    throw new BackupError(
      'NEWER_SCHEMA',
      `the backup comes from a newer schema than this build knows (migration ${unknown}): restore it with the Shortlinks release that wrote it, or a newer one`,
    );
  }
  if (migrations.some((name, i) => known[i] !== name)) {
    throw new BackupError('SCHEMA_MISMATCH', `the backup's migrations (${migrations.join(', ')}) are not this build's in order`);
  }
  return header as BackupHeader;
}

async function refuseUnlessEmpty(client: pg.Client): Promise<void> {
  const found = await client.query<{ name: string }>(`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
     order by c.relname limit 4`);
  if (found.rows.length === 0) return;
  throw new BackupError(
    'DATABASE_NOT_EMPTY',
    `the database is not empty (it holds ${found.rows.map((row) => row.name).join(', ')}${found.rows.length > 3 ? ', …' : ''}). ` +
      'A restore goes into an empty database only: create a new one (createdb), or for the embedded database use a new DATA_DIR. ' +
      'A server that has ever started on a database has created its tables.',
  );
}

/** The tables the migrations made are the ones the backup holds, with the same columns. */
async function checkSchema(client: pg.Client, header: BackupHeader): Promise<void> {
  const describe = (tables: { name: string; columns: string[] }[]) =>
    tables
      .map((table) => `${table.name}(${table.columns.join(',')})`)
      .sort()
      .join(' ');
  const made = describe(await schemaTables(client));
  const expected = describe(header.tables);
  if (made !== expected) {
    throw new BackupError('SCHEMA_MISMATCH', `the backup's tables do not match its migrations' (backup: ${expected}; migrated: ${made})`);
  }
}

/** One table's data frames through COPY FROM STDIN; the row count must be the one the file recorded. */
async function loadTable(client: pg.Client, frames: AsyncIterator<Frame>, target: string, onRows: (rows: number) => void): Promise<number> {
  let recorded: number | undefined;
  let sent = 0;
  async function* data(): AsyncGenerator<Buffer> {
    for (;;) {
      const next = await frames.next();
      if (next.done) throw new BackupError('TRUNCATED', 'the file ends early (was it copied whole?)');
      if (next.value.type === 'E') {
        recorded = parseJson<{ rows?: number }>(next.value, 'a table end').rows;
        return;
      }
      if (next.value.type !== 'D') throw new BackupError('CORRUPT', `the file is damaged (frame ${next.value.type} inside a table)`);
      yield next.value.payload;
      sent += countRows(next.value.payload);
      onRows(sent);
    }
  }
  const copy = client.query(copyFrom(`copy ${target} from stdin`));
  await pipeline(data(), copy);
  if (recorded !== copy.rowCount) {
    throw new BackupError('CORRUPT', `the file is damaged (${copy.rowCount} rows where it recorded ${String(recorded)})`);
  }
  return copy.rowCount;
}
