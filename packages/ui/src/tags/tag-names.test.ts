import { describe, expect, test } from 'vitest';
import { addTagName, sortedByName, tagsMatching } from './tag-names.ts';

const available = [{ name: 'Campaigns' }, { name: 'Email' }];

describe('addTagName', () => {
  test('a typed name matching an existing tag takes that tag’s spelling', () => {
    expect(addTagName([], ' campaigns ', available)).toEqual(['Campaigns']);
  });

  test('a new name is trimmed with its inner spaces collapsed', () => {
    expect(addTagName(['Email'], '  Spring   sale ', available)).toEqual(['Email', 'Spring sale']);
  });

  test('a name already chosen (in any case) or an empty one changes nothing', () => {
    const selected = ['Email'];
    expect(addTagName(selected, 'EMAIL', available)).toBe(selected);
    expect(addTagName(selected, '   ', available)).toBe(selected);
  });
});

describe('sortedByName and tagsMatching', () => {
  const tags = [{ name: 'work' }, { name: 'Émile' }, { name: 'Q10' }, { name: 'Apple' }, { name: 'Q2' }];

  test('tags are listed by name, ignoring case and accents, numbers in their order', () => {
    expect(sortedByName(tags).map((tag) => tag.name)).toEqual(['Apple', 'Émile', 'Q2', 'Q10', 'work']);
  });

  test('matches start with the text first, then contain it; nothing typed is every tag', () => {
    expect(tagsMatching(tags, ' e ').map((tag) => tag.name)).toEqual(['Émile', 'Apple']);
    expect(tagsMatching(tags, 'EMI').map((tag) => tag.name)).toEqual(['Émile']);
    expect(tagsMatching(tags, 'q').map((tag) => tag.name)).toEqual(['Q2', 'Q10']);
    expect(tagsMatching(tags, 'or').map((tag) => tag.name)).toEqual(['work']);
    expect(tagsMatching(tags, '')).toHaveLength(5);
  });
});
