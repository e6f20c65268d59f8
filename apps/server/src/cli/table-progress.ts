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
