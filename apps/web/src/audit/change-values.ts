/**
 * A changed field's value in a few words, as the audit log shows it: the API's value (a string, a
 * number, a list, an object) written compactly and cut to `max` characters, with the whole of it
 * for the hover. Times (`…_at` fields in Unix epoch ms) read as dates.
 */
export interface ValueText {
  /** What the cell shows. */
  short: string;
  /** The whole value, when `short` leaves part of it out. */
  full?: string;
  /** No value: null or absent (a field set for the first time, or cleared). */
  empty: boolean;
}

export const VALUE_MAX_CHARS = 60;

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function valueText(field: string, value: unknown, max = VALUE_MAX_CHARS): ValueText {
  if (value === null || value === undefined) return { short: 'none', empty: true };
  const whole = wholeText(field, value);
  if (whole.length <= max) return { short: whole, empty: false };
  return { short: `${whole.slice(0, max - 1).trimEnd()}…`, full: whole, empty: false };
}

function wholeText(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    // A time is a number of milliseconds the reader cannot read; anything else shows as it is.
    return field.endsWith('_at') && Number.isFinite(value) ? dateTime.format(value) : String(value);
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(itemText).join(', ')}]`;
  return compactJson(value);
}

/** A list's item: a thing with a name (a tag) by its name, anything else compactly. */
function itemText(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') {
    return (item as { name: string }).name;
  }
  return compactJson(item);
}

/** JSON without quotes around keys or spaces after commas, as `{country: FR, url: https://…}`. */
function compactJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  const fields = Object.entries(value as Record<string, unknown>).map(([key, inner]) => `${key}: ${compactJson(inner)}`);
  return `{${fields.join(', ')}}`;
}

/** A field's name as a reader says it: `destination_url` → "destination url". */
export function fieldLabel(field: string): string {
  return field.replaceAll('_', ' ');
}
