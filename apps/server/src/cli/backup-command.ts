import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { BackupError, writeBackup } from '@shortlinks/db/backup';
import { operatorPath } from './operator-path.ts';
import { tableProgress } from './table-progress.ts';
import { UsageError } from './usage-error.ts';

export interface BackupFlags {
  output?: string | undefined;
}

/**
 * `pnpm shortlinks backup [--output FILE|-]` (docs/operations.md): every table of the database in
 * one consistent snapshot, gzip-compressed, while servers keep running. Without --output the file
 * is `shortlinks-<UTC time>.backup` in the current directory; `-` writes to stdout. The file is
 * written beside its name and renamed into place when complete, so an interrupted backup never
 * leaves a file that looks whole.
 */
export async function backupCommand(databaseUrl: string, flags: BackupFlags, extra: string[]): Promise<number> {
  if (extra.length > 0) throw new UsageError(`backup takes no argument "${extra[0]}" (--output FILE names the file)`);
  const started = Date.now();
  const progress = tableProgress('read');
  if (flags.output === '-') {
    await writeBackup(databaseUrl, process.stdout as Writable, progress);
    return 0;
  }
  const file = operatorPath(flags.output ?? `shortlinks-${new Date().toISOString().replace(/[-:]|\.\d+/g, '')}.backup`);
  const partial = `${file}.partial`;
  console.error(`Backing up to ${file}…`);
  try {
    const { header, rows } = await writeBackup(databaseUrl, createWriteStream(partial, { mode: 0o600 }), progress);
    await rename(partial, file);
    const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
    const { size } = await stat(file);
    console.log(
      `Backed up ${header.tables.length} tables, ${total} rows (schema at ${header.migrations.at(-1)}) to ${file}: ` +
        `${(size / 1024 / 1024).toFixed(1)} MiB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    await rm(partial, { force: true });
    if (!(error instanceof BackupError)) throw error;
    console.error(`Nothing was backed up: ${error.code} ${error.message}`);
    return 1;
  }
  return 0;
}
