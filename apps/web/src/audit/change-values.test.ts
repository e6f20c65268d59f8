import { describe, expect, test } from 'vitest';
import { fieldLabel, VALUE_MAX_CHARS, valueText } from './change-values.ts';

describe('a changed value in a few words', () => {
  test('no value reads as none', () => {
    expect(valueText('title', null)).toEqual({ short: 'none', empty: true });
    expect(valueText('title', undefined)).toEqual({ short: 'none', empty: true });
  });

  test('text, numbers and yes/no show as they are', () => {
    expect(valueText('title', 'Spring launch')).toEqual({ short: 'Spring launch', empty: false });
    expect(valueText('max_clicks', 5)).toEqual({ short: '5', empty: false });
    expect(valueText('archived', true).short).toBe('yes');
  });

  test('a long value is cut, and its whole kept for the hover', () => {
    const url = `https://example.org/${'a'.repeat(200)}`;
    const shown = valueText('destination_url', url);
    expect(shown.short.length).toBeLessThanOrEqual(VALUE_MAX_CHARS);
    expect(shown.short.endsWith('…')).toBe(true);
    expect(shown.full).toBe(url);
  });

  test('lists and objects are compact: tags by name, objects without quotes', () => {
    expect(
      valueText('tags', [
        { id: 'tag_1', name: 'spring', color: 'red' },
        { id: 'tag_2', name: 'promo' },
      ]).short,
    ).toBe('[spring, promo]');
    expect(valueText('scopes', ['links.read', 'links.write']).short).toBe('[links.read, links.write]');
    expect(valueText('tags', []).short).toBe('[]');
    expect(valueText('utm', { source: 'news', medium: null }).short).toBe('{source: news, medium: null}');
  });

  test('a time in milliseconds reads as a date', () => {
    const at = Date.UTC(2026, 2, 12, 14, 30);
    expect(valueText('expires_at', at).short).toBe(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(at),
    );
    expect(valueText('max_clicks', at).short).toBe(String(at));
  });

  test('field names read as words', () => {
    expect(fieldLabel('destination_url')).toBe('destination url');
  });
});
