const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/** How long ago `at` was, in the reader's language: "just now", "5 minutes ago", "yesterday". */
export function relativeTime(at: number, now: number): string {
  const past = now - at;
  if (Math.abs(past) < 60_000) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(past) >= size) return relative.format(-Math.trunc(past / size), unit);
  }
  return 'just now';
}

/** The instant to the second, in the reader's zone: the hover of a relative time. */
export function exactTime(at: number): string {
  return exact.format(at);
}
