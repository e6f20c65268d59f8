import { describe, expect, test } from 'vitest';
import { indexedWords } from './link-list-query.ts';

describe('indexedWords: what the trigram index is asked for', () => {
  test.each([
    ['sku-0042', ['sku', '0042']],
    ['SHOP.example/sku', ['SHOP', 'example', 'sku']],
    ['100%', ['100']],
    ['docs docs', ['docs']],
    ['KIT-2024', ['KIT', '2024']],
    ['launch  party', ['launch', 'party']],
  ])('%s: each word as written (PostgreSQL lower-cases it), once', (search, words) => {
    expect(indexedWords(search)).toEqual(words);
  });

  test.each([
    ['docs', 'one word: the whole text'],
    ['Docs', 'one word in capitals'],
    ['a-b', 'words too short for a trigram'],
    ['sale 17', 'a word too short for a trigram'],
    ['x-100', 'a word too short for a trigram'],
    ['%', 'no word at all'],
    ['café-bar', 'not ASCII'],
    ['Σίσυφος 2024', 'not ASCII'],
  ])('%s: the whole text (%s)', (search) => {
    expect(indexedWords(search)).toBeUndefined();
  });
});
