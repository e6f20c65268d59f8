import { STATS_LIMITS } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { localIsoDate } from './calendar.ts';
import { customDatesOf, RANGE_LIMITS, type RangeChoice, resolveRange, type StatsWindow } from './range.ts';

const iso = (instant: number) => new Date(instant).toISOString();

/** The window of a choice that must be valid. */
function windowOf(choice: RangeChoice, now: string, timeZone: string): StatsWindow {
  const resolved = resolveRange(choice, Date.parse(now), timeZone);
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.window;
}

describe('presets', () => {
  test('the API’s limits are the contract’s', () => {
    expect(RANGE_LIMITS).toEqual({ maxHourDays: STATS_LIMITS.maxHourRangeDays, maxDayDays: STATS_LIMITS.maxDayRangeDays });
  });

  test('24 hours is the current UTC hour and the 23 before it, ending now', () => {
    const window = windowOf({ kind: 'preset', preset: '24h', interval: 'hour' }, '2026-05-10T14:37:12Z', 'Asia/Kolkata');
    expect(iso(window.start)).toBe('2026-05-09T15:00:00.000Z');
    expect(iso(window.end)).toBe('2026-05-10T14:37:12.000Z');
    expect(window).toMatchObject({ interval: 'hour', tz: 'Asia/Kolkata', dailyBecauseLong: false });
  });

  test('7 days starts at local midnight six days ago, in a half-hour zone', () => {
    // 14:37 UTC is 20:07 in Kolkata on the 10th: the 4th to the 10th, from midnight IST (18:30 UTC the day before).
    const window = windowOf({ kind: 'preset', preset: '7d', interval: 'day' }, '2026-05-10T14:37:12Z', 'Asia/Kolkata');
    expect(iso(window.start)).toBe('2026-05-03T18:30:00.000Z');
    // Newfoundland (UTC−2:30 in summer): 12:07 on the 10th.
    const stJohns = windowOf({ kind: 'preset', preset: '7d', interval: 'day' }, '2026-05-10T14:37:12Z', 'America/St_Johns');
    expect(iso(stJohns.start)).toBe('2026-05-04T02:30:00.000Z');
  });

  test('30 days across the spring clock change start at winter midnight', () => {
    const window = windowOf({ kind: 'preset', preset: '30d', interval: 'day' }, '2026-04-10T12:00:00Z', 'Europe/Berlin');
    // 12 March to 10 April: 12 March is still CET (UTC+1).
    expect(iso(window.start)).toBe('2026-03-11T23:00:00.000Z');
    expect(localIsoDate(window.start, 'Europe/Berlin')).toBe('2026-03-12');
  });

  test('30 days may be hourly; 90 days is by day even when hours are asked for, and says so', () => {
    const thirty = windowOf({ kind: 'preset', preset: '30d', interval: 'hour' }, '2026-04-10T12:00:00Z', 'UTC');
    expect(thirty).toMatchObject({ interval: 'hour', dailyBecauseLong: false });
    const ninety = windowOf({ kind: 'preset', preset: '90d', interval: 'hour' }, '2026-04-10T12:00:00Z', 'UTC');
    expect(ninety).toMatchObject({ interval: 'day', dailyBecauseLong: true });
    expect(iso(ninety.start)).toBe('2026-01-11T00:00:00.000Z');
  });
});

describe('custom ranges', () => {
  const now = '2026-05-10T14:37:12Z';
  const custom = (from: string, to: string, interval: 'hour' | 'day' = 'day') =>
    resolveRange({ kind: 'custom', from, to, interval }, Date.parse(now), 'Europe/Berlin');

  test('run from the first local midnight to the end of the last day, both days included', () => {
    const resolved = custom('2026-03-28', '2026-03-30');
    expect(resolved.ok && [iso(resolved.window.start), iso(resolved.window.end)]).toEqual([
      '2026-03-27T23:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ]);
  });

  test('a range reaching today ends now', () => {
    const resolved = custom('2026-05-01', '2026-05-10');
    expect(resolved.ok && iso(resolved.window.end)).toBe('2026-05-10T14:37:12.000Z');
  });

  test('longer than 31 days is by day even when hours are asked for', () => {
    expect(custom('2026-04-01', '2026-05-01', 'hour')).toMatchObject({ ok: true, window: { interval: 'hour', dailyBecauseLong: false } });
    expect(custom('2026-04-01', '2026-05-02', 'hour')).toMatchObject({ ok: true, window: { interval: 'day', dailyBecauseLong: true } });
  });

  test('31 calendar days across the autumn change are 31 days and an hour: by day (the API counts milliseconds)', () => {
    const resolved = custom('2025-10-01', '2025-10-31', 'hour');
    expect(resolved).toMatchObject({ ok: true, window: { interval: 'day', dailyBecauseLong: true } });
  });

  test('is refused with a message at its field when it cannot be answered', () => {
    expect(custom('', '2026-05-01')).toEqual({ ok: false, field: 'from', message: 'Enter a start date.' });
    expect(custom('2026-05-01', '2026-02-30')).toEqual({ ok: false, field: 'to', message: 'Enter an end date.' });
    expect(custom('2026-05-03', '2026-05-01')).toEqual({
      ok: false,
      field: 'to',
      message: 'The end date must not be before the start date.',
    });
    expect(custom('2026-05-11', '2026-05-12')).toEqual({ ok: false, field: 'from', message: 'The start date is in the future.' });
    expect(custom('2025-04-05', '2026-05-10')).toEqual({
      ok: false,
      field: 'from',
      message: 'A range spans at most 400 days: choose a later start date.',
    });
    expect(custom('2025-04-06', '2026-05-10')).toMatchObject({ ok: true });
  });

  test('starts from the days the current window covers', () => {
    const window = windowOf({ kind: 'preset', preset: '7d', interval: 'day' }, now, 'Asia/Kolkata');
    expect(customDatesOf(window, 'Asia/Kolkata')).toEqual({ from: '2026-05-04', to: '2026-05-10' });
  });
});
