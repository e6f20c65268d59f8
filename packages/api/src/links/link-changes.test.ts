import { describe, expect, test } from 'vitest';
import { changedFields, changesNothing, keepsTags, type TaggedLink } from './link-changes.ts';
import { NO_SMART_FIELDS } from './smart-link-fields.ts';

const NOW = Date.UTC(2026, 10, 27);
const link: TaggedLink = {
  id: 'lnk_1',
  domain_id: null,
  slug: 'promo',
  destination_url: 'https://example.com/a',
  title: 'A',
  external_id: 'crm-1',
  comments: 'kept',
  expires_at: new Date(NOW + 86_400_000),
  expiration_url: 'https://example.com/after',
  click_count: 3,
  created_at: new Date(NOW - 86_400_000),
  ...NO_SMART_FIELDS,
  tags: [{ id: 'tag_1', name: 'Promo', color: 'indigo' }],
};

describe('a change of a link, as PATCH applies it', () => {
  test('fields it does not carry stay; comments null or empty are removed', () => {
    expect(changedFields(link, { expiry: {} }, NOW)).toMatchObject({ title: 'A', comments: 'kept', external_id: 'crm-1' });
    expect(changedFields(link, { comments: '', expiry: {} }, NOW).comments).toBeNull();
    expect(changedFields(link, { comments: null, expiry: {} }, NOW).comments).toBeNull();
  });

  test('a new expiry keeps the fallback; one in the past is refused unless kept (an import)', () => {
    const later = NOW + 2 * 86_400_000;
    expect(changedFields(link, { expiry: { expires_at: later } }, NOW)).toMatchObject({
      expires_at: new Date(later),
      expiration_url: 'https://example.com/after',
    });
    expect(() => changedFields(link, { expiry: { expires_at: NOW - 1 } }, NOW)).toThrow('expires_at must be in the future');
    expect(changedFields(link, { expiry: { expires_at: NOW - 1 }, pastExpiryKept: true }, NOW).expires_at).toEqual(new Date(NOW - 1));
  });

  test('tags named again ignoring case are kept; tag ids always count as a change', () => {
    expect(keepsTags(link.tags, { expiry: {} })).toBe(true);
    expect(keepsTags(link.tags, { tag_names: ['PROMO'], expiry: {} })).toBe(true);
    expect(keepsTags(link.tags, { tag_names: ['Promo', 'Other'], expiry: {} })).toBe(false);
    expect(keepsTags(link.tags, { tag_ids: ['tag_1'], expiry: {} })).toBe(false);
  });

  test('changes nothing only when every field and the tags are what the link holds', () => {
    const same = { destination_url: link.destination_url, title: 'A', tag_names: ['promo'], expiry: {} };
    expect(changesNothing(link, same, NOW)).toBe(true);
    expect(changesNothing(link, { ...same, title: 'B' }, NOW)).toBe(false);
    expect(changesNothing(link, { ...same, expiry: { expires_at: link.expires_at?.getTime() } }, NOW)).toBe(true);
    expect(changesNothing(link, { ...same, expiry: { expiration_url: 'https://example.com/other' } }, NOW)).toBe(false);
  });
});
