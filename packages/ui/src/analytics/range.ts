import type { StatsInterval } from '@shortlinks/client';
import { DAY_MS, HOUR_MS } from '@shortlinks/contract/rules';
import { addDays, type IsoDate, localIsoDate, parseIsoDate, startOfLocalDay } from './calendar.ts';

/**
 * The API's longest ranges, `end − start` before rounding (`STATS_LIMITS` in `@shortlinks/contract`,
 * spelt out here because importing the contract's values would bundle zod; `range.test.ts` checks
 * that they agree).
 */
export const RANGE_LIMITS = { maxHourDays: 31, maxDayDays: 400 } as const;

export const RANGE_PRESETS = [
  { id: '24h', label: '24 hours', interval: 'hour' },
  { id: '7d', label: '7 days', interval: 'day' },
  { id: '30d', label: '30 days', interval: 'day' },
  { id: '90d', label: '90 days', interval: 'day' },
] as const satisfies readonly { id: string; label: string; interval: StatsInterval }[];

export type PresetId = (typeof RANGE_PRESETS)[number]['id'];

/** What the reader picked: a preset or two calendar dates (both included), and hour or day. */
export type RangeChoice =
  | { kind: 'preset'; preset: PresetId; interval: StatsInterval }
  | { kind: 'custom'; from: IsoDate; to: IsoDate; interval: StatsInterval };

/** The query a choice becomes. */
export interface StatsWindow {
  start: number;
  end: number;
  interval: StatsInterval;
  tz: string;
  /** Hourly was asked for but the range is longer than the API gives hours for, so it is by day. */
  dailyBecauseLong: boolean;
}

export type ResolvedRange = { ok: true; window: StatsWindow } | { ok: false; field: 'from' | 'to'; message: string };

/** Whether the API answers `interval=hour` for this range. */
export function hourlyAllowed(start: number, end: number): boolean {
  return end - start <= RANGE_LIMITS.maxHourDays * DAY_MS;
}

/**
 * The start, end and interval to ask for. Presets end now: "24 hours" is the current UTC hour and
 * the 23 before it (hour buckets are UTC hours), "N days" is today and the N − 1 days before it,
 * from the first instant of that local day. A custom range runs from the first instant of `from`
 * to the end of `to` (or now, if sooner), in `timeZone`.
 */
export function resolveRange(choice: RangeChoice, now: number, timeZone: string): ResolvedRange {
  let start: number;
  let end = now;
  if (choice.kind === 'preset') {
    if (choice.preset === '24h') {
      start = Math.floor(now / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
    } else {
      const days = Number.parseInt(choice.preset, 10);
      start = startOfLocalDay(addDays(localIsoDate(now, timeZone), -(days - 1)), timeZone);
    }
  } else {
    if (!parseIsoDate(choice.from)) return { ok: false, field: 'from', message: 'Enter a start date.' };
    if (!parseIsoDate(choice.to)) return { ok: false, field: 'to', message: 'Enter an end date.' };
    if (choice.to < choice.from) return { ok: false, field: 'to', message: 'The end date must not be before the start date.' };
    start = startOfLocalDay(choice.from, timeZone);
    if (start < 0) return { ok: false, field: 'from', message: 'Statistics start in 1970: choose a later start date.' };
    if (start >= now) return { ok: false, field: 'from', message: 'The start date is in the future.' };
    end = Math.min(startOfLocalDay(addDays(choice.to, 1), timeZone), now);
    if (end - start > RANGE_LIMITS.maxDayDays * DAY_MS) {
      return {
        ok: false,
        field: 'from',
        message: `A range spans at most ${RANGE_LIMITS.maxDayDays} days: choose a later start date.`,
      };
    }
  }
  const dailyBecauseLong = choice.interval === 'hour' && !hourlyAllowed(start, end);
  return {
    ok: true,
    window: { start, end, interval: dailyBecauseLong ? 'day' : choice.interval, tz: timeZone, dailyBecauseLong },
  };
}

/** The dates a custom range starts from: the calendar days the current window covers. */
export function customDatesOf(window: Pick<StatsWindow, 'start' | 'end'>, timeZone: string): { from: IsoDate; to: IsoDate } {
  return { from: localIsoDate(window.start, timeZone), to: localIsoDate(window.end - 1, timeZone) };
}
