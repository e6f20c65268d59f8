import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Services } from '@shortlinks/api/services';
import { EXPORT_FORMATS, exportFormatOf } from '@shortlinks/contract';
import { operatorPath } from './operator-path.ts';
import { UsageError } from './usage-error.ts';

export interface ExportFlags {
  account?: string | undefined;
  format?: string | undefined;
  output?: string | undefined;
  'raw-csv'?: boolean | undefined;
}

/**
 * `pnpm shortlinks export --account ID [--format csv|jsonl] [--raw-csv] [--output FILE]`: the same
 * file as GET /links/export (`--raw-csv` is `csv_formulas=raw`), to stdout or to FILE. Pages are read only as fast as the output takes them,
 * so memory stays flat. A file is written beside FILE and renamed into place when complete: an
 * interrupted export never leaves a truncated file that looks whole.
 */
export async function exportCommand(services: Services, flags: ExportFlags, extra: string[]): Promise<number> {
  if (!flags.account) throw new UsageError('export needs --account ACCOUNT_ID');
  if (extra.length > 0) throw new UsageError(`export takes no argument "${extra[0]}" (--output FILE writes to a file)`);
  const format = (flags.format ?? 'csv') as (typeof EXPORT_FORMATS)[number];
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join('|')}`);
  if (flags['raw-csv'] && format !== 'csv') throw new UsageError('--raw-csv is for --format csv: JSON Lines is always raw');
  if (!(await services.accounts.get(flags.account))) throw new UsageError(`No account ${flags.account}.`);

  const file = Readable.from(
    services.linkExport.file(flags.account, exportFormatOf({ format, csv_formulas: flags['raw-csv'] ? 'raw' : 'guarded' })),
  );
  if (flags.output === undefined) {
    await pipeline(file, process.stdout as Writable, { end: false });
    return 0;
  }
  // Written where the operator ran the command, not in apps/server where pnpm runs it.
  const output = operatorPath(flags.output);
  const partial = `${output}.partial`;
  try {
    await pipeline(file, createWriteStream(partial));
    await rename(partial, output);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  console.error(`Exported to ${output}`);
  return 0;
}
