import { fileURLToPath } from 'node:url';
import type { ImportRow } from '../import-row.ts';

/** A sample file, written exactly as its tool writes it (see samples/ and docs/import-export.md). */
export function samplePath(name: string): string {
  return fileURLToPath(new URL(`./samples/${name}`, import.meta.url));
}

export async function collect(rows: AsyncIterable<ImportRow>): Promise<ImportRow[]> {
  const all: ImportRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/** Unix milliseconds of an ISO 8601 time, for expected values. */
export function at(iso: string): number {
  return Date.parse(iso);
}
