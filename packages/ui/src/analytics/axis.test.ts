import { describe, expect, test } from 'vitest';
import { axisLabels, axisTicks } from './axis.ts';
import { formatsFor } from './format.ts';

const HOUR = 3_600_000;
const hours = (from: string, count: number) => Array.from({ length: count }, (_, index) => Date.parse(from) + index * HOUR);
const localHour = (instant: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(instant);

describe('axisTicks', () => {
  test('labels every bucket when there is room', () => {
    expect(axisTicks(hours('2026-05-10T00:00:00Z', 5), 'hour', 'UTC', 10)).toEqual([0, 1, 2, 3, 4]);
  });

  test('hours are labelled on round local hours, which are hh:30 in a half-hour zone', () => {
    const starts = hours('2026-05-09T15:00:00Z', 24);
    const ticks = axisTicks(starts, 'hour', 'Asia/Kolkata', 8);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks.map((index) => localHour(starts[index] as number, 'Asia/Kolkata'))).toEqual([
      '21:30',
      '00:30',
      '03:30',
      '06:30',
      '09:30',
      '12:30',
      '15:30',
      '18:30',
    ]);
  });

  test('a month of hours is labelled at the first hour of local days', () => {
    const starts = hours('2026-04-01T00:00:00Z', 30 * 24);
    const ticks = axisTicks(starts, 'hour', 'Europe/Berlin', 12);
    expect(ticks.length).toBeLessThanOrEqual(12);
    expect(ticks.every((index) => localHour(starts[index] as number, 'Europe/Berlin') === '00:00')).toBe(true);
  });

  test('days are labelled counting back from the last one, then by month', () => {
    const days = Array.from({ length: 30 }, (_, index) => Date.UTC(2026, 3, 1 + index));
    const ticks = axisTicks(days, 'day', 'UTC', 6);
    expect(ticks.at(-1)).toBe(29);
    expect(ticks[1]! - ticks[0]!).toBe(7);
    const year = Array.from({ length: 365 }, (_, index) => Date.UTC(2025, 0, 1 + index));
    const monthly = axisTicks(year, 'day', 'UTC', 12);
    expect(monthly.map((index) => new Date(year[index] as number).getUTCDate())).toEqual(Array(12).fill(1));
  });

  test('never gives more labels than asked, even where nothing round fits', () => {
    expect(axisTicks(hours('2026-05-10T00:00:00Z', 745), 'hour', 'UTC', 1).length).toBeLessThanOrEqual(1);
    expect(axisTicks(hours('2026-05-10T00:00:00Z', 745), 'hour', 'UTC', 3).length).toBeLessThanOrEqual(3);
  });
});

describe('axisLabels', () => {
  test('hours say the date under the first label of each day', () => {
    const starts = hours('2026-05-09T15:00:00Z', 24);
    const formats = formatsFor({ locale: 'en-GB', timeZone: 'Asia/Kolkata', interval: 'hour' });
    expect(axisLabels(starts, [0, 6, 12, 18], 'hour', 'Asia/Kolkata', formats)).toEqual([
      '20:30\n9 May',
      '02:30\n10 May',
      '08:30',
      '14:30',
    ]);
  });

  test('ticks a day apart are named by their date only', () => {
    const starts = hours('2026-05-09T22:00:00Z', 72);
    const formats = formatsFor({ locale: 'en-GB', timeZone: 'Europe/Berlin', interval: 'hour' });
    expect(axisLabels(starts, [0, 24, 48], 'hour', 'Europe/Berlin', formats)).toEqual(['10 May', '11 May', '12 May']);
  });
});
