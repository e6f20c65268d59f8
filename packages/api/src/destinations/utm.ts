import { UTM_KEYS, type UtmKey } from '@shortlinks/contract';

/** The utm object of a request; empty values are ignored (docs/api-decisions.md). */
export type Utm = { [key in UtmKey]?: string | undefined };

/**
 * The destination with the utm values merged in as utm_* parameters, replacing parameters of
 * the same name (spec: POST /links utm). Without utm values the URL is returned as sent, so a
 * caller gets back exactly what it stored.
 */
export function mergeUtm(destination: string, utm: Utm | undefined): string {
  const entries = UTM_KEYS.flatMap((key) => {
    const value = utm?.[key];
    return value ? [[`utm_${key}`, value] as const] : [];
  });
  if (entries.length === 0) return asciiUrl(destination);
  const url = new URL(destination);
  for (const [name, value] of entries) url.searchParams.set(name, value);
  return url.href;
}

/**
 * The URL as sent, unless it holds non-ASCII characters: then its serialised form, so that
 * internationalised host names are stored as punycode and paths percent-encoded.
 */
export function asciiUrl(url: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  return /[^\x00-\x7f]/.test(url) ? new URL(url).href : url;
}
