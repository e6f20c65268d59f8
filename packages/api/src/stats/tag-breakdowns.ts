import type { Db } from '../database/database.ts';
import { type BreakdownRow, type StatsSubject, type TagBreakdownRead, tagBreakdownSumsQuery } from './stats-queries.ts';
import type { StatsRange } from './stats-range.ts';

const TAG_READS: TagBreakdownRead[] = ['closed', 'open dimensions', 'open links'];

/**
 * A tag's breakdowns and top links, ranked like readBreakdowns ranks a link's: the `top` largest
 * values of each dimension, ties by value in code point order. Its closed days (cached sums) and
 * open days (its links' rollups) are thousands of rows each, so they are summed at the same time
 * on their own connections, and the small sums (a few hundred rows) are added and ranked here.
 */
export async function readTagBreakdowns(
  connect: () => Db,
  subject: Extract<StatsSubject, { kind: 'tag' }>,
  range: StatsRange,
): Promise<BreakdownRow[]> {
  const reads = await Promise.all(
    TAG_READS.map(async (read) => (await tagBreakdownSumsQuery(subject, range, read).execute(connect())).rows),
  );
  const sums = new Map<string, { row: BreakdownRow; clicks: number }>();
  for (const row of reads.flat()) {
    const key = `${row.dimension}\u0000${row.value}`;
    const sum = sums.get(key);
    if (sum) sum.clicks += Number(row.clicks);
    else sums.set(key, { row, clicks: Number(row.clicks) });
  }
  const byDimension = new Map<string, { row: BreakdownRow; clicks: number }[]>();
  for (const sum of sums.values()) {
    const list = byDimension.get(sum.row.dimension);
    if (list) list.push(sum);
    else byDimension.set(sum.row.dimension, [sum]);
  }
  const ranked: BreakdownRow[] = [];
  for (const list of byDimension.values()) {
    list.sort((a, b) => b.clicks - a.clicks || byCodePoint(a.row.value, b.row.value));
    for (const { row, clicks } of list.slice(0, range.top)) ranked.push({ ...row, clicks: String(clicks) });
  }
  return ranked;
}

/** PostgreSQL's `collate "C"` order: UTF-8 bytes, which is code point order (UTF-16 units are not, past U+FFFF). */
const byCodePoint = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
