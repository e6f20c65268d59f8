/**
 * The most characters a click keeps of each value a visitor chooses (docs/security.md, "Click
 * counting"). These values are part of the statistics tables' primary keys, and PostgreSQL
 * refuses an index row over 2,704 bytes: one unbounded value used to fail every later batch.
 */
export const CLICK_VALUE_LIMITS = {
  /** The longest name DNS allows (RFC 1035). */
  referrerHost: 253,
  /** Real browser and OS names are a few words; Bowser names an unknown browser after the User-Agent's first token. */
  browser: 64,
  os: 64,
  /** Longer than any city name in the bundled database (docs/statistics.md, "Cities"). */
  city: 128,
} as const;

/** What kind of device a visit came from, as the `device` dimension holds it. */
export type AgentClass = 'bot' | 'desktop' | 'mobile' | 'tablet' | 'unknown';

/** What the `device` dimension may hold. */
const DEVICES: ReadonlySet<string> = new Set<AgentClass>(['desktop', 'mobile', 'tablet', 'unknown', 'bot']);

/**
 * `value` when it is a short enough text PostgreSQL can store, else null (the value is unknown):
 * never cut, since a cut host or browser name would be one the visitor never sent. NUL is the
 * one character PostgreSQL text cannot hold.
 */
export function boundedText(value: string | null | undefined, max: number): string | null {
  if (!value || value.length > max || value.includes('\u0000')) return null;
  return value;
}

/** A device class the statistics know, else `unknown`. */
export function boundedDevice(device: string): string {
  return DEVICES.has(device) ? device : 'unknown';
}

/** An ISO 3166-1 alpha-2 code as the country header gives it (agent-class.ts), else null. */
export function boundedCountry(country: string | null): string | null {
  return country !== null && /^[A-Z]{2}$/.test(country) ? country : null;
}

/** The daily visitor hash as 16 hex digits (VisitorSalts), else null: the flush turns it into a bigint. */
export function boundedVisitor(visitor: string | null): string | null {
  return visitor !== null && /^[0-9a-f]{16}$/.test(visitor) ? visitor : null;
}

/** What brought a visitor to the link: the link itself, or its QR code (`?qr=1`, docs/redirects.md). */
export type ClickTrigger = 'link' | 'qr';

/** A trigger the statistics know, else `link`. */
export function boundedTrigger(trigger: string): ClickTrigger {
  return trigger === 'qr' ? 'qr' : 'link';
}
