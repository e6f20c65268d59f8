import { describe, expect, test } from 'vitest';
import { boundedCountry, boundedDevice, boundedText, boundedVisitor } from './click-values.ts';

describe('what a flush writes of a click group', () => {
  test('text within its bound is kept whole; longer text, empty text and text with NUL are unknown (null), never cut', () => {
    expect(boundedText('news.example.org', 253)).toBe('news.example.org');
    expect(boundedText('x'.repeat(253), 253)).toBe('x'.repeat(253));
    expect(boundedText('x'.repeat(254), 253)).toBeNull();
    expect(boundedText('nul\u0000.example', 253)).toBeNull();
    expect(boundedText('', 253)).toBeNull();
    expect(boundedText(null, 253)).toBeNull();
    expect(boundedText('Ünïcödé ÿ', 64)).toBe('Ünïcödé ÿ');
  });

  test('a device the statistics do not know is unknown', () => {
    for (const device of ['desktop', 'mobile', 'tablet', 'unknown', 'bot']) expect(boundedDevice(device)).toBe(device);
    expect(boundedDevice('d'.repeat(5000))).toBe('unknown');
  });

  test('a country is two capital letters or null', () => {
    expect(boundedCountry('DE')).toBe('DE');
    expect(boundedCountry('de')).toBeNull();
    expect(boundedCountry('DEU')).toBeNull();
    expect(boundedCountry(null)).toBeNull();
  });

  test('a visitor is 16 hex digits or null, so the flush can always turn it into a bigint', () => {
    expect(boundedVisitor('0123456789abcdef')).toBe('0123456789abcdef');
    expect(boundedVisitor('0123456789abcdeg')).toBeNull();
    expect(boundedVisitor('0123456789abcdef0')).toBeNull();
    expect(boundedVisitor(null)).toBeNull();
  });
});
