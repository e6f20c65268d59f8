import { describe, expect, test } from 'vitest';
import { dimensionValueLabel, formatsFor, offsetChanges } from './format.ts';

const at = (text: string) => Date.parse(text);

describe('formats', () => {
  test('numbers follow the reader’s locale', () => {
    expect(formatsFor({ locale: 'en-US', timeZone: 'UTC', interval: 'day' }).count(1234567)).toBe('1,234,567');
    expect(formatsFor({ locale: 'de-DE', timeZone: 'UTC', interval: 'day' }).count(1234567)).toBe('1.234.567');
  });

  test('day buckets are named by their local date, in the reader’s language', () => {
    // The Berlin day that starts at 22:00 UTC on 9 May is the 10th.
    const berlin = formatsFor({ locale: 'de-DE', timeZone: 'Europe/Berlin', interval: 'day' });
    expect(berlin.bucket(at('2026-05-09T22:00:00Z'))).toBe('So., 10. Mai 2026');
    expect(berlin.range(at('2026-05-03T22:00:00Z'), at('2026-05-10T22:00:00Z'), 'day')).toBe('4.–10. Mai 2026');
  });

  test('hour buckets (UTC hours) show local times: :30 in a half-hour zone', () => {
    const kolkata = formatsFor({ locale: 'en-GB', timeZone: 'Asia/Kolkata', interval: 'hour' });
    expect(kolkata.bucket(at('2026-05-10T14:00:00Z'))).toBe('Sun 10 May, 19:30');
    expect(kolkata.axisTime(at('2026-05-10T14:00:00Z'))).toBe('19:30');
    expect(kolkata.range(at('2026-05-10T14:00:00Z'), at('2026-05-10T17:00:00Z'), 'hour')).toBe('10 May 2026, 19:30–22:30');
  });

  test('where the clocks go back, the repeated hour is told apart by its zone', () => {
    const berlin = formatsFor({ locale: 'en-GB', timeZone: 'Europe/Berlin', interval: 'hour', showZone: true });
    expect(berlin.bucket(at('2026-10-25T00:00:00Z'))).toBe('Sun 25 Oct, 02:00 CEST');
    expect(berlin.bucket(at('2026-10-25T01:00:00Z'))).toBe('Sun 25 Oct, 02:00 CET');
  });

  test('offsetChanges tells when a range crosses a clock change', () => {
    const hours = (from: string, count: number) => Array.from({ length: count }, (_, index) => at(from) + index * 3_600_000);
    expect(offsetChanges(hours('2026-10-24T12:00:00Z', 24), 'Europe/Berlin')).toBe(true);
    expect(offsetChanges(hours('2026-10-26T12:00:00Z', 24), 'Europe/Berlin')).toBe(false);
    expect(offsetChanges(hours('2026-10-24T12:00:00Z', 24), 'Asia/Kolkata')).toBe(false);
    expect(offsetChanges([], 'Europe/Berlin')).toBe(false);
  });
});

describe('breakdown values', () => {
  const formats = formatsFor({ locale: 'en-GB', timeZone: 'UTC', interval: 'day' });

  test('countries by name in the reader’s language, not by code', () => {
    expect(dimensionValueLabel('countries', 'DE', formats)).toBe('Germany');
    expect(dimensionValueLabel('countries', 'DE', formatsFor({ locale: 'fr-FR', timeZone: 'UTC', interval: 'day' }))).toBe('Allemagne');
    expect(dimensionValueLabel('countries', 'not a code', formats)).toBe('not a code');
  });

  test('no value is "Direct / none" for referrers and "Unknown" for the rest', () => {
    expect(dimensionValueLabel('referrers', null, formats)).toBe('Direct / none');
    for (const dimension of ['countries', 'devices', 'browsers', 'operating_systems'] as const) {
      expect(dimensionValueLabel(dimension, null, formats)).toBe('Unknown');
    }
  });

  test('device types are words; referrers, browsers and systems as the server names them', () => {
    expect(dimensionValueLabel('devices', 'mobile', formats)).toBe('Mobile');
    expect(dimensionValueLabel('devices', 'unknown', formats)).toBe('Unknown');
    expect(dimensionValueLabel('referrers', 'news.example.org', formats)).toBe('news.example.org');
    expect(dimensionValueLabel('browsers', 'Microsoft Edge', formats)).toBe('Microsoft Edge');
  });
});
