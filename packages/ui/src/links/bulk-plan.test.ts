import type { TagSummary } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { sampleLink } from '../testing/sample-link.ts';
import { inBatches, planBulk } from './bulk-plan.ts';

const work: TagSummary = { id: 'tag_w', name: 'Work', color: 'indigo' };
const home: TagSummary = { id: 'tag_h', name: 'Home', color: 'lime' };
const link = (id: string, tags: TagSummary[] = []) => sampleLink({ id, tags });

describe('bulk actions as bulk calls', () => {
  test('adding a tag: links that end with the same tags share a call; links that have it already are left alone', () => {
    const plan = planBulk({ kind: 'add-tag', tag: work }, [link('a'), link('b', [home]), link('c'), link('d', [work]), link('e', [home])]);
    expect(plan.batches).toEqual([
      { kind: 'set-tags', ids: ['a', 'c'], tagIds: ['tag_w'] },
      { kind: 'set-tags', ids: ['b', 'e'], tagIds: ['tag_h', 'tag_w'] },
    ]);
    expect(plan.unchanged.map((item) => item.id)).toEqual(['d']);
  });

  test('removing a tag keeps each link’s other tags; links without it are left alone', () => {
    const plan = planBulk({ kind: 'remove-tag', tag: work }, [link('a', [work]), link('b', [home, work]), link('c', [home])]);
    expect(plan.batches).toEqual([
      { kind: 'set-tags', ids: ['a'], tagIds: [] },
      { kind: 'set-tags', ids: ['b'], tagIds: ['tag_h'] },
    ]);
    expect(plan.unchanged.map((item) => item.id)).toEqual(['c']);
  });

  test('no call names more than 100 links: 250 deletions are three calls', () => {
    const many = Array.from({ length: 250 }, (_, i) => link(`lnk_${i}`));
    const { batches } = planBulk({ kind: 'delete' }, many);
    expect(batches.map((batch) => batch.ids.length)).toEqual([100, 100, 50]);
    expect(batches.flatMap((batch) => batch.ids)).toEqual(many.map((item) => item.id));
    expect(planBulk({ kind: 'add-tag', tag: work }, many).batches.map((batch) => batch.ids.length)).toEqual([100, 100, 50]);
  });

  test('runs of ids', () => {
    expect(inBatches(['a', 'b', 'c'], 2)).toEqual([['a', 'b'], ['c']]);
    expect(inBatches([])).toEqual([]);
  });
});
