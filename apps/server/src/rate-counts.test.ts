import { describe, expect, test } from 'vitest';
import { LocalRateCounts } from './rate-counts.ts';

const incr = (counts: LocalRateCounts, key: string, timeWindow = 60_000) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    counts.incr(key, (error, result) => (error || !result ? reject(error) : resolve(result)), timeWindow, 10),
  );

describe('the rate-limit counters of one process', () => {
  test('a request counts 1 on arrival, and the rest of its weight only if all of it fits', async () => {
    const counts = new LocalRateCounts(100);
    expect((await incr(counts, 'key:a')).current).toBe(1);
    expect(await counts.take('key:a', 6, 60_000, 10)).toMatchObject({ taken: true, current: 7 });
    expect(await counts.take('key:a', 4, 60_000, 10)).toMatchObject({ taken: false, current: 7 });
    expect(await counts.take('key:a', 3, 60_000, 10)).toMatchObject({ taken: true, current: 10 });
    expect((await incr(counts, 'key:b')).current).toBe(1);
  });

  test('a window that ended starts again; the ttl is what is left of the current one', async () => {
    const counts = new LocalRateCounts(100);
    await incr(counts, 'key:a', 50);
    const { ttl } = await counts.take('key:a', 1, 50, 10);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(50);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await incr(counts, 'key:a', 50)).current).toBe(1);
  });

  test('at most trackedClients keys are kept, the least recently seen forgotten first', async () => {
    const counts = new LocalRateCounts(2);
    await incr(counts, 'key:a');
    await incr(counts, 'key:b');
    await incr(counts, 'key:a');
    await incr(counts, 'key:c');
    expect((await incr(counts, 'key:a')).current).toBe(3);
    expect((await incr(counts, 'key:b')).current).toBe(1);
  });
});
