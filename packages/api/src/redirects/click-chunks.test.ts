import { describe, expect, test } from 'vitest';
import { chunksOf } from './click-chunks.ts';

const groups = (...clicks: number[]) => clicks.map((count, i) => ({ id: i, clicks: count }));
const ids = (chunks: { id: number }[][]) => chunks.map((chunk) => chunk.map((group) => group.id));

describe('chunksOf: the click groups of one flush, cut into statements', () => {
  test('by groups alone while no webhook subscribes to clicks', () => {
    expect(ids(chunksOf(groups(5, 5, 5, 5, 5), 2, Number.POSITIVE_INFINITY))).toEqual([[0, 1], [2, 3], [4]]);
  });

  test('by clicks too: a chunk never holds more clicks than the bound, each click being an event then', () => {
    expect(ids(chunksOf(groups(2, 2, 1, 3, 1, 1), 100, 4))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  test('a group of more clicks than the bound is a chunk of its own, never split nor lost', () => {
    expect(ids(chunksOf(groups(1, 9, 1), 100, 4))).toEqual([[0], [1], [2]]);
  });

  test('nothing to write: no chunk', () => {
    expect(chunksOf([], 10, 10)).toEqual([]);
  });
});
