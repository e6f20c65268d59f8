import { describe, expect, test } from 'vitest';
import { addTagName } from './tag-names.ts';

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
