import { TZDateMini } from '@date-fns/tz';
import type { StatsInterval } from '@shortlinks/client';
import type { Formats } from './format.ts';

interface LocalTime {
  /** `YYYY-M-D`: tells days apart. */
  date: string;
  dayOfMonth: number;
  hour: number;
}

function localTimes(starts: number[], timeZone: string): LocalTime[] {
  return starts.map((start) => {
    const local = new TZDateMini(start, timeZone);
    return {
      date: `${local.getFullYear()}-${local.getMonth()}-${local.getDate()}`,
      dayOfMonth: local.getDate(),
      hour: local.getHours(),
    };
  });
}

/** Every `step`-th of `indexes`. */
const everyNth = (indexes: number[], step: number) => indexes.filter((_, position) => position % step === 0);

/**
 * The buckets the chart's time axis labels: at most `maxLabels`, on round local times — hours
 * divisible by 1, 2, 3, 6 or 12, then the first bucket of every 1, 2 or 7 days; for days, every
 * 1, 2, 7 or 14 days counted back from the last (today), then the first of every 1, 2, 3, 6 or
 * 12 months. Hour buckets are UTC hours: in a zone with a :30 offset they start at hh:30, and
 * their local hour is what counts.
 */
export function axisTicks(starts: number[], interval: StatsInterval, timeZone: string, maxLabels: number): number[] {
  const limit = Math.max(1, maxLabels);
  const all = starts.map((_, index) => index);
  if (starts.length <= limit) return all;
  const local = localTimes(starts, timeZone);
  const candidates: number[][] = [];
  if (interval === 'hour') {
    for (const step of [1, 2, 3, 6, 12]) candidates.push(all.filter((index) => (local[index] as LocalTime).hour % step === 0));
    const dayStarts = all.filter((index) => index > 0 && local[index]?.date !== local[index - 1]?.date);
    for (const step of [1, 2, 7, 14]) candidates.push(everyNth(dayStarts, step));
  } else {
    const last = starts.length - 1;
    for (const step of [2, 7, 14]) candidates.push(all.filter((index) => (last - index) % step === 0));
    const monthStarts = all.filter((index) => (local[index] as LocalTime).dayOfMonth === 1);
    for (const step of [1, 2, 3, 6, 12]) candidates.push(everyNth(monthStarts, step));
  }
  const fitting = candidates.find((ticks) => ticks.length > 0 && ticks.length <= limit);
  if (fitting) return fitting;
  // Nothing round fits (a very narrow chart): evenly spaced.
  const step = Math.ceil(starts.length / limit);
  return all.filter((index) => index % step === 0);
}

/**
 * The labels of those ticks. Days: the date. Hours: the local time, with the date under the first
 * label of each day ("14:30\n12 Mar"); only the date when the ticks are a day or more apart.
 */
export function axisLabels(
  starts: number[],
  ticks: number[],
  interval: StatsInterval,
  timeZone: string,
  formats: Pick<Formats, 'axisTime' | 'axisDay'>,
): string[] {
  if (interval === 'day') return ticks.map((index) => formats.axisDay(starts[index] as number));
  const local = localTimes(
    ticks.map((index) => starts[index] as number),
    timeZone,
  );
  // Ticks a day or more apart (23 hours on a short DST day) are days: their time says nothing.
  const daily = ticks.length > 1 && (starts[ticks[1] as number] as number) - (starts[ticks[0] as number] as number) >= 23 * 3_600_000;
  return ticks.map((index, position) => {
    const start = starts[index] as number;
    if (daily) return formats.axisDay(start);
    const newDay = position === 0 || local[position]?.date !== local[position - 1]?.date;
    return newDay ? `${formats.axisTime(start)}\n${formats.axisDay(start)}` : formats.axisTime(start);
  });
}
