import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type WriteProgress, writeApart } from './write-apart.ts';

const refused = (value: number) => Object.assign(new Error(`value ${value} violates check constraint`), { code: '23514' });
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/**
 * A table that, like one PostgreSQL statement, writes a batch whole or not at all: it refuses any
 * batch holding a negative value, and is unreachable from its `reachableWrites`-th write on.
 */
function table(reachableWrites = Number.POSITIVE_INFINITY) {
  const rows: number[] = [];
  let writes = 0;
  const write = async (batch: number[]) => {
    writes++;
    if (writes > reachableWrites) throw unreachable();
    const bad = batch.find((value) => value < 0);
    if (bad !== undefined) throw refused(bad);
    rows.push(...batch);
  };
  return { rows, write, writes: () => writes };
}

const progress = (): WriteProgress<number> => ({ written: new Set(), refused: [] });

describe('writeApart', () => {
  test('a batch the database takes is written in one write', async () => {
    const { rows, write, writes } = table();
    const done = progress();
    await writeApart(write, [1, 2, 3], done);
    expect(rows).toEqual([1, 2, 3]);
    expect(writes()).toBe(1);
    expect(done.refused).toEqual([]);
  });

  test('whatever the refused values among the others, each other value is written exactly once and each refused one is reported', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 200 }), async (values) => {
        const items = [...new Set(values)];
        const { rows, write, writes } = table();
        const done = progress();
        await writeApart(write, items, done);
        const bad = items.filter((value) => value < 0);
        expect([...rows].sort((a, b) => a - b)).toEqual(items.filter((value) => value >= 0).sort((a, b) => a - b));
        expect(done.refused.map(({ item }) => item).sort((a, b) => a - b)).toEqual([...bad].sort((a, b) => a - b));
        for (const { item, refusal } of done.refused)
          expect(refusal).toEqual({ code: '23514', message: `value ${item} violates check constraint` });
        // Halving: a few writes per refused value, not one per value.
        expect(writes()).toBeLessThanOrEqual(1 + 2 * bad.length * Math.ceil(Math.log2(items.length + 1)));
      }),
      { numRuns: 200 },
    );
  });

  test('when the database goes away while writing apart, the error is thrown and progress tells what is settled', async () => {
    const { rows, write } = table(4);
    const done = progress();
    // Write 1: all refused; 2: [1, -2] refused; 3: [1] written; 4: [-2] refused alone; 5: [3, 4] unreachable.
    await expect(writeApart(write, [1, -2, 3, 4], done)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(rows).toEqual([1]);
    expect([...done.written]).toEqual([1]);
    expect(done.refused.map(({ item }) => item)).toEqual([-2]);
  });

  test('an unreachable database is not a refusal: nothing is split, settled or reported', async () => {
    const { write, writes } = table(0);
    const done = progress();
    await expect(writeApart(write, [1, -2, 3], done)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(writes()).toBe(1);
    expect(done).toEqual({ written: new Set(), refused: [] });
  });
});
