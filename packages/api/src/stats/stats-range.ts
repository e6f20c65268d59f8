import { DAY_MS, STATS_LIMITS, type StatsInterval, type StatsQuery } from '@shortlinks/contract';
import { validationError } from '../errors.ts';

/** The range a statistics request asks for, before rounding to whole buckets (which PostgreSQL does, in `tz`). */
export interface StatsRange {
  start: number;
  end: number;
  interval: StatsInterval;
  tz: string;
  top: number;
}

/**
 * Applies the defaults (the 30 days before now, UTC) and the range rules: start before end, and
 * at most 31 days at `hour` and 400 days at `day`, so a response never grows past ~750 buckets.
 */
export function resolveStatsRange(query: StatsQuery, now: number): StatsRange {
  const end = query.end ?? now;
  const start = query.start ?? end - STATS_LIMITS.defaultDays * DAY_MS;
  if (start >= end) {
    throw validationError('end', query.end === undefined ? 'start must be before end (default: now)' : 'end must be after start');
  }
  const maxDays = query.interval === 'hour' ? STATS_LIMITS.maxHourRangeDays : STATS_LIMITS.maxDayRangeDays;
  if (end - start > maxDays * DAY_MS) {
    throw validationError('start', `the range from start to end may span at most ${maxDays} days at interval=${query.interval}`);
  }
  return { start, end, interval: query.interval, tz: query.tz ?? 'UTC', top: query.top };
}
