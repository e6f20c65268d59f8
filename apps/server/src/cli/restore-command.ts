import { open } from 'node:fs/promises';
import { BackupError, restoreBackup } from '@shortlinks/db/backup';
import { operatorPath } from './operator-path.ts';
import { tableProgress } from './table-progress.ts';
import { UsageError } from './usage-error.ts';

/**
 * `pnpm shortlinks restore FILE` (docs/operations.md): a backup into an EMPTY database, then any
 * migrations newer than the backup. All or nothing: a damaged file or a database that is not empty
 * leaves the database as it was. Exits 0 when restored, 1 when the database was not empty, 2 for a
 * command line or a file it cannot use.
 */
export async function restoreCommand(databaseUrl: string, files: string[]): Promise<number> {
  const [name, ...extra] = files;
  if (!name || extra.length > 0) throw new UsageError('restore needs exactly one FILE');
  const file = operatorPath(name);
  const handle = await open(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`${file}: cannot read it (${error.code ?? error.message}). Nothing was restored.`);
  });
  const started = Date.now();
  console.error(`Restoring ${file}…`);
  try {
    const { header, rows, upgraded } = await restoreBackup(databaseUrl, handle.createReadStream(), tableProgress('loaded'));
    const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
    console.log(
      `Restored ${header.tables.length} tables, ${total} rows from a backup of ${header.created_at} ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        (upgraded.length > 0 ? `; then applied ${upgraded.length} newer migrations (${upgraded.join(', ')})` : ''),
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    if (error.code === 'DATABASE_NOT_EMPTY') {
      console.error(`Nothing was restored: ${error.code} ${error.message}`);
      return 1;
    }
    throw new UsageError(`${file}: ${error.code} ${error.message}. Nothing was restored.`);
  } finally {
    await handle.close().catch(() => {});
  }
}
