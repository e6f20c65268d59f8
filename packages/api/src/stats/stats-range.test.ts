import { describe, expect, test } from 'vitest';
import { AppError } from '../errors.ts';
import { resolveStatsRange } from './stats-range.ts';

const NOW = Date.UTC(2026, 10, 22, 12);
const DAY = 86_400_000;

function failure(run: () => unknown): { code: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, field: error.field };
  }
  throw new Error('expected an AppError');
}

describe('resolveStatsRange', () => {
  test('defaults to the 30 days before now, in UTC', () => {
    expect(resolveStatsRange({ interval: 'day', top: 10 }, NOW)).toEqual({
      start: NOW - 30 * DAY,
      end: NOW,
      interval: 'day',
      tz: 'UTC',
      top: 10,
    });
  });

  test('without start, the range is the 30 days before end', () => {
    expect(resolveStatsRange({ end: NOW - DAY, interval: 'hour', tz: 'Asia/Kolkata', top: 5 }, NOW)).toMatchObject({
      start: NOW - 31 * DAY,
      end: NOW - DAY,
      tz: 'Asia/Kolkata',
    });
  });

  test('start must be before end', () => {
    expect(failure(() => resolveStatsRange({ start: NOW, end: NOW, interval: 'day', top: 10 }, NOW))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'end',
    });
    expect(failure(() => resolveStatsRange({ start: NOW + DAY, interval: 'day', top: 10 }, NOW))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'end',
    });
  });

  test('hourly ranges span at most 31 days, daily ranges at most 400', () => {
    expect(resolveStatsRange({ start: NOW - 31 * DAY, end: NOW, interval: 'hour', top: 10 }, NOW).start).toBe(NOW - 31 * DAY);
    expect(failure(() => resolveStatsRange({ start: NOW - 31 * DAY - 1, end: NOW, interval: 'hour', top: 10 }, NOW))).toEqual({
      code: 'VALIDATION_ERROR',
      field: 'start',
    });
    expect(resolveStatsRange({ start: NOW - 400 * DAY, end: NOW, interval: 'day', top: 10 }, NOW).start).toBe(NOW - 400 * DAY);
    expect(failure(() => resolveStatsRange({ start: NOW - 400 * DAY - 1, end: NOW, interval: 'day', top: 10 }, NOW)).field).toBe('start');
  });
});
