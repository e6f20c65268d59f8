import type { StatsInterval } from '@shortlinks/client';

/**
 * How the statistics are written for the reader: numbers and dates in their locale (`undefined`:
 * the browser's), times in the answer's time zone, countries by name.
 */
export interface Formats {
  count(value: number): string;
  /** A bucket as a table row names it: "Thu, 12 Mar 2026" or "Thu, 12 Mar, 14:30". */
  bucket(start: number): string;
  /** The chart's axis: the time of an hour ("14:30") or the day ("12 Mar"). */
  axisTime(start: number): string;
  /** The chart's axis: the day under the first hour of each day ("12 Mar"). */
  axisDay(start: number): string;
  /** A range of instants, end exclusive, as days ("12 – 18 Mar 2026") or times. */
  range(start: number, end: number, interval: StatsInterval): string;
  country(code: string): string;
}

/**
 * The formats for `locale` and `timeZone`. `showZone` adds the zone's name to times: needed when a
 * range crosses a clock change, where the same local hour happens twice.
 */
export function formatsFor({
  locale,
  timeZone,
  interval,
  showZone = false,
}: {
  locale: string | undefined;
  timeZone: string;
  interval: StatsInterval;
  showZone?: boolean;
}): Formats {
  const numbers = new Intl.NumberFormat(locale);
  const zone = showZone ? ({ timeZoneName: 'short' } as const) : {};
  const dayRow = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
  const hourRow = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...zone,
  });
  const time = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short' });
  const days = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short', year: 'numeric' });
  const times = new Intl.DateTimeFormat(locale, {
    timeZone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...zone,
  });
  let regions: Intl.DisplayNames | undefined;
  try {
    regions = new Intl.DisplayNames(locale, { type: 'region' });
  } catch {
    regions = undefined;
  }
  return {
    count: (value) => numbers.format(value),
    bucket: (start) => (interval === 'day' ? dayRow : hourRow).format(start),
    axisTime: (start) => (interval === 'day' ? day : time).format(start),
    axisDay: (start) => day.format(start),
    // Days are inclusive ("12 – 18 Mar" for an end at the 19th's midnight); hours span start to end.
    range: (start, end, unit) => (unit === 'day' ? days.formatRange(start, Math.max(start, end - 1)) : times.formatRange(start, end)),
    country: (code) => {
      try {
        return regions?.of(code.toUpperCase()) ?? code;
      } catch {
        // Not a region code at all (the proxy sent something odd): show it as it came.
        return code;
      }
    },
  };
}

/** The breakdowns the API gives, in the order they are shown. */
export const DIMENSIONS = [
  { key: 'referrers', title: 'Referrers', none: 'Direct / none' },
  { key: 'countries', title: 'Countries', none: 'Unknown' },
  { key: 'cities', title: 'Cities', none: 'Unknown' },
  { key: 'triggers', title: 'Link or QR code', none: 'Unknown' },
  { key: 'devices', title: 'Devices', none: 'Unknown' },
  { key: 'browsers', title: 'Browsers', none: 'Unknown' },
  { key: 'operating_systems', title: 'Operating systems', none: 'Unknown' },
] as const;

export type Dimension = (typeof DIMENSIONS)[number]['key'];

const DEVICE_NAMES: Record<string, string> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', unknown: 'Unknown' };
/** What brought the visitor: the link itself, or a scan of its QR code (`?qr=1`). */
const TRIGGER_NAMES: Record<string, string> = { link: 'Link', qr: 'QR code scan' };

/**
 * A breakdown's value as a reader knows it: null is "Direct / none" for referrers, "Unknown"
 * otherwise; a city with its country's name (`country`: the city entry's code).
 */
export function dimensionValueLabel(
  dimension: Dimension,
  value: string | null,
  formats: Pick<Formats, 'country'>,
  country?: string | null,
): string {
  if (value === null) return DIMENSIONS.find((entry) => entry.key === dimension)?.none ?? 'Unknown';
  if (dimension === 'countries') return formats.country(value);
  if (dimension === 'cities') return country ? `${value}, ${formats.country(country)}` : value;
  if (dimension === 'triggers') return TRIGGER_NAMES[value] ?? value;
  if (dimension === 'devices') return DEVICE_NAMES[value] ?? value;
  return value;
}

/** Whether the clocks change in `timeZone` between these instants (so a local time can repeat). */
export function offsetChanges(instants: number[], timeZone: string): boolean {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  const offsetOf = (instant: number) => format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
  const first = instants.length > 0 ? offsetOf(instants[0] as number) : undefined;
  return instants.some((instant) => offsetOf(instant) !== first);
}
