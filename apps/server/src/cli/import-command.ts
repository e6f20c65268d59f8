import { ImportFileError, readImportFile } from '@shortlinks/api/imports';
import {
  CONFLICT_MODES,
  type ConflictMode,
  IMPORT_FORMATS,
  type ImportCounts,
  type ImportFormat,
  type ImportResult,
  type Services,
} from '@shortlinks/api/services';
import { operatorPath } from './operator-path.ts';
import { UsageError } from './usage-error.ts';

export interface ImportFlags {
  account?: string | undefined;
  format?: string | undefined;
  'on-conflict'?: string | undefined;
  'dry-run'?: boolean | undefined;
  json?: boolean | undefined;
}

/** How often, at most, a long import says how far it is (on stderr). */
const PROGRESS_EVERY_MS = 2000;

/**
 * `pnpm shortlinks import --account ID FILE [--format F] [--on-conflict skip|update|fail] [--dry-run]`
 * (docs/import-export.md). Prints one line per refused row (`row N: CODE message`) and a summary
 * on stdout, progress on stderr. Exits 0 when every row was applied (or skipped), 1 when a row
 * was refused or a conflict stopped the import, 2 for a command line it cannot run.
 */
export async function importCommand(services: Services, flags: ImportFlags, files: string[]): Promise<number> {
  if (!flags.account) throw new UsageError('import needs --account ACCOUNT_ID');
  const [typed, ...extra] = files;
  if (!typed || extra.length > 0) throw new UsageError('import needs exactly one FILE');
  // Read from where the operator ran the command, not from apps/server where pnpm runs it.
  const path = operatorPath(typed);
  const mode = (flags['on-conflict'] ?? 'skip') as ConflictMode;
  if (!CONFLICT_MODES.includes(mode)) throw new UsageError(`--on-conflict must be one of ${CONFLICT_MODES.join('|')}`);
  if (flags.format !== undefined && !IMPORT_FORMATS.includes(flags.format as ImportFormat)) {
    throw new UsageError(`--format must be one of ${IMPORT_FORMATS.join('|')}`);
  }
  if (!(await services.accounts.get(flags.account))) throw new UsageError(`No account ${flags.account}.`);

  // What the import had applied when the file stopped being readable, if it had started.
  const progress: { applied?: ImportCounts } = {};
  try {
    return await importFile(services, flags.account, path, flags, mode, progress);
  } catch (error) {
    if (error instanceof ImportFileError)
      throw new UsageError(`${path}: ${error.code} ${error.message}${afterMidwayFailure(progress.applied, flags, mode)}`);
    throw error;
  }
}

/**
 * What a file that breaks midway left behind: the batches before it stay imported (a dry run and a
 * `fail` import are undone whole), and running the import again once the file is fixed is safe (it
 * is idempotent), so say both, with the counts, rather than leave the reader to guess.
 */
function afterMidwayFailure(applied: ImportCounts | undefined, flags: ImportFlags, mode: ConflictMode): string {
  if (applied === undefined || applied.read === 0) return '';
  if (flags['dry-run'] || mode === 'fail') return '\nNothing was changed.';
  return (
    `\nBefore it, in batches that stay imported: ${applied.created} created, ${applied.updated} updated, ` +
    `${applied.skipped + applied.unchanged} unchanged, ${applied.refused} refused. The rows read after those were not imported; ` +
    'fix the file and run the import again (rows already imported are not imported twice).'
  );
}

async function importFile(
  services: Services,
  accountId: string,
  path: string,
  flags: ImportFlags,
  mode: ConflictMode,
  progress: { applied?: ImportCounts },
): Promise<number> {
  const { format, rows } = await readImportFile(path, flags.format as ImportFormat | undefined);
  const dryRun = flags['dry-run'] ?? false;
  const started = Date.now();
  let lastProgress = started;
  const refusals: { row: number; code: string; message: string; field?: string }[] = [];
  console.error(`Importing ${path} (${format})${dryRun ? ', dry run: nothing will be written' : ''}…`);

  const result = await services.linkImport.import(accountId, rows, {
    onConflict: mode,
    dryRun,
    onRefused: (refusal) => {
      if (flags.json) refusals.push(refusal);
      else console.log(`row ${refusal.row}: ${refusal.code} ${refusal.message}`);
    },
    onProgress: (counts) => {
      progress.applied = counts;
      const now = Date.now();
      if (now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      console.error(`… ${progressLine(counts, now - started)}`);
    },
  });

  const seconds = (Date.now() - started) / 1000;
  if (flags.json) {
    console.log(JSON.stringify({ format, ...result, seconds, refusals }, null, 2));
  } else {
    console.log(summary(result, seconds));
  }
  return result.refused > 0 || result.stoppedAt ? 1 : 0;
}

function progressLine(counts: ImportCounts, ms: number): string {
  const rate = Math.round(counts.read / Math.max(ms / 1000, 0.001));
  return `${counts.read} rows read: ${counts.created} created, ${counts.updated} updated, ${counts.skipped + counts.unchanged} unchanged, ${counts.refused} refused (${rate} rows/s)`;
}

function summary(result: ImportResult, seconds: number): string {
  const lines = [
    `${result.dryRun ? 'Dry run (nothing written)' : 'Imported'}: ${result.read} rows in ${seconds.toFixed(1)} s`,
    `  created   ${result.created}`,
    `  updated   ${result.updated}`,
    `  unchanged ${result.unchanged}`,
    `  skipped   ${result.skipped}`,
    `  refused   ${result.refused}`,
  ];
  if (result.stoppedAt) {
    lines.push(`Stopped at row ${result.stoppedAt.row} (--on-conflict fail): nothing was changed.`);
  }
  return lines.join('\n');
}
