import { describe, expect, test } from 'vitest';
import { addDays, localIsoDate, parseIsoDate, startOfLocalDay } from './calendar.ts';

const iso = (instant: number) => new Date(instant).toISOString();

describe('startOfLocalDay', () => {
  test('is local midnight, in zones with whole and half-hour offsets', () => {
    expect(iso(startOfLocalDay('2026-01-05', 'UTC'))).toBe('2026-01-05T00:00:00.000Z');
    expect(iso(startOfLocalDay('2026-01-05', 'Europe/Berlin'))).toBe('2026-01-04T23:00:00.000Z');
    expect(iso(startOfLocalDay('2026-01-05', 'Asia/Kolkata'))).toBe('2026-01-04T18:30:00.000Z');
    expect(iso(startOfLocalDay('2026-01-05', 'America/St_Johns'))).toBe('2026-01-05T03:30:00.000Z');
  });

  test('follows the offset of its own day on both sides of a clock change', () => {
    // Berlin moves to summer time at 02:00 on 29 March 2026 and back at 03:00 on 25 October.
    expect(iso(startOfLocalDay('2026-03-29', 'Europe/Berlin'))).toBe('2026-03-28T23:00:00.000Z');
    expect(iso(startOfLocalDay('2026-03-30', 'Europe/Berlin'))).toBe('2026-03-29T22:00:00.000Z');
    expect(iso(startOfLocalDay('2026-10-26', 'Europe/Berlin'))).toBe('2026-10-25T23:00:00.000Z');
  });

  test('is the first time that exists where the clocks skip midnight', () => {
    // Santiago skips from 00:00 to 01:00 on 6 September 2026; Havana on 8 March 2026.
    expect(iso(startOfLocalDay('2026-09-06', 'America/Santiago'))).toBe('2026-09-06T04:00:00.000Z');
    expect(localIsoDate(startOfLocalDay('2026-09-06', 'America/Santiago') - 1, 'America/Santiago')).toBe('2026-09-05');
    expect(iso(startOfLocalDay('2026-03-08', 'America/Havana'))).toBe('2026-03-08T05:00:00.000Z');
  });
});

describe('calendar dates', () => {
  test('localIsoDate is the date on the wall clock of the zone', () => {
    const instant = Date.parse('2026-01-04T19:00:00Z');
    expect(localIsoDate(instant, 'UTC')).toBe('2026-01-04');
    expect(localIsoDate(instant, 'Asia/Kolkata')).toBe('2026-01-05');
    expect(localIsoDate(instant, 'America/Los_Angeles')).toBe('2026-01-04');
  });

  test('addDays crosses months, years and leap days', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-01-05', -89)).toBe('2025-10-08');
  });

  test('parseIsoDate accepts only dates that exist', () => {
    expect(parseIsoDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseIsoDate('2026-02-30')).toBeUndefined();
    expect(parseIsoDate('2026-2-3')).toBeUndefined();
    expect(parseIsoDate('')).toBeUndefined();
  });
});
