import { TZDateMini } from '@date-fns/tz';

/** A calendar date as a date input holds it: `YYYY-MM-DD`. */
export type IsoDate = string;

/** The reader's time zone (an IANA name), or UTC where the runtime does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The calendar date in `timeZone` at `instant`. */
export function localIsoDate(instant: number, timeZone: string): IsoDate {
  const local = new TZDateMini(instant, timeZone);
  return `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
}

/** Year, month (1–12) and day of a well-formed date that exists (`2026-02-30` does not). */
export function parseIsoDate(value: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** `date` moved by whole calendar days (no time zone: a calendar date has none). */
export function addDays(date: IsoDate, days: number): IsoDate {
  const parts = parseIsoDate(date);
  if (!parts) throw new RangeError(`not a date: ${date}`);
  const moved = new Date(Date.UTC(parts.year, parts.month - 1, parts.day + days));
  return `${pad(moved.getUTCFullYear(), 4)}-${pad(moved.getUTCMonth() + 1)}-${pad(moved.getUTCDate())}`;
}

/**
 * The first instant of a calendar date in `timeZone`: its midnight, or where a clock change skips
 * midnight (Santiago, Havana), the first time that exists that day — where PostgreSQL starts the
 * API's day buckets too.
 */
export function startOfLocalDay(date: IsoDate, timeZone: string): number {
  const parts = parseIsoDate(date);
  if (!parts) throw new RangeError(`not a date: ${date}`);
  return new TZDateMini(parts.year, parts.month - 1, parts.day, timeZone).getTime();
}
