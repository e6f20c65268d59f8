import { type Refusal, refusalOf } from './database-refusal.ts';

/** How far {@link writeApart} got: the items written, and those PostgreSQL refused even alone (and why). */
export interface WriteProgress<T> {
  written: Set<T>;
  refused: { item: T; refusal: Refusal }[];
}

/**
 * Writes `items` with `write` in one go. When PostgreSQL refuses them for their data
 * (database-refusal.ts), the halves are written apart, down to single items, and the items it
 * still refuses alone end up in `progress.refused`: k bad items among n cost at most 2k·log₂(n)
 * more writes. `write` must be all or nothing (one statement, click-batch.ts), so every other
 * item is written exactly once. Any other error (the database is unreachable) is thrown;
 * `progress` then tells which items are settled, so the caller keeps only the others.
 */
export async function writeApart<T>(write: (items: T[]) => Promise<void>, items: T[], progress: WriteProgress<T>): Promise<void> {
  try {
    await write(items);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    await writeHalves(write, items, refusal, progress);
  }
}

/** Writes the halves of `items`, which PostgreSQL refused together for `refusal`. */
async function writeHalves<T>(
  write: (items: T[]) => Promise<void>,
  items: T[],
  refusal: Refusal,
  progress: WriteProgress<T>,
): Promise<void> {
  const [only] = items;
  if (only !== undefined && items.length === 1) {
    progress.refused.push({ item: only, refusal });
    return;
  }
  const middle = Math.ceil(items.length / 2);
  for (const half of [items.slice(0, middle), items.slice(middle)]) {
    try {
      await write(half);
      for (const item of half) progress.written.add(item);
    } catch (error) {
      const again = refusalOf(error);
      if (!again) throw error;
      await writeHalves(write, half, again, progress);
    }
  }
}
