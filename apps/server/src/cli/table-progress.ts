import path from 'node:path';
import type { TableProgress } from '@shortlinks/db/backup';

/** How often, at most, a long table says how far it is. */
const PROGRESS_EVERY_MS = 2000;

/** Progress of a backup or restore on stderr: a line per table, and every 2 s within a long one. */
export function tableProgress(verb: string): (progress: TableProgress) => void {
  let last = Date.now();
  return ({ table, rows, done }) => {
    const now = Date.now();
    if (!done && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    console.error(`  ${table}: ${rows.toLocaleString('en')} rows${done ? '' : ` ${verb}…`}`);
  };
}

/**
 * A path the operator typed, made absolute. pnpm runs the CLI in apps/server, but gives the
 * directory the command was run from as INIT_CWD: for `pnpm shortlinks` that is the repository's
 * root, the directory DATA_DIR is relative to as well.
 */
export function operatorPath(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}
