import { jsonObject, type RemoteAnswer, type RemoteLookup, UnexpectedAnswer } from './remote-reputation.ts';

export const SAFE_BROWSING_URL = 'https://safebrowsing.googleapis.com';

/** The threat lists a short link must not lead to. */
export const SAFE_BROWSING_THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];

interface ThreatMatch {
  threatType?: unknown;
  cacheDuration?: unknown;
}

/**
 * Google Safe Browsing Lookup API v4 (`POST /v4/threatMatches:find`), for non-commercial use
 * (Google's terms; Web Risk is the commercial alternative). A match is cached for the match's
 * `cacheDuration`, as the API asks.
 */
export class SafeBrowsingLookup implements RemoteLookup {
  readonly name = 'Google Safe Browsing';
  readonly #endpoint: string;
  readonly #clientVersion: string;

  constructor({
    apiKey,
    baseUrl = SAFE_BROWSING_URL,
    clientVersion = '0.1.0',
  }: { apiKey: string; baseUrl?: string; clientVersion?: string }) {
    this.#endpoint = `${baseUrl.replace(/\/+$/, '')}/v4/threatMatches:find?key=${encodeURIComponent(apiKey)}`;
    this.#clientVersion = clientVersion;
  }

  async lookup(url: string, signal: AbortSignal): Promise<RemoteAnswer> {
    const response = await fetch(this.#endpoint, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client: { clientId: 'shortlinks', clientVersion: this.#clientVersion },
        threatInfo: {
          threatTypes: SAFE_BROWSING_THREAT_TYPES,
          platformTypes: ['ANY_PLATFORM'],
          threatEntryTypes: ['URL'],
          threatEntries: [{ url }],
        },
      }),
    });
    const body = await jsonObject(response, this.name);
    if (body.matches === undefined) return { verdict: { flagged: false } };
    if (!Array.isArray(body.matches)) throw new UnexpectedAnswer(`${this.name} answered matches that are not a list`);
    const matches = body.matches as ThreatMatch[];
    if (matches.length === 0) return { verdict: { flagged: false } };
    const types = [...new Set(matches.map((match) => String(match.threatType ?? 'THREAT')))];
    const durations = matches.map((match) => parseDuration(match.cacheDuration)).filter((ms) => ms !== undefined);
    return {
      verdict: { flagged: true, reason: `${this.name}: ${types.join(', ')}` },
      cacheForMs: durations.length > 0 ? Math.min(...durations) : undefined,
    };
  }
}

/** A protobuf JSON Duration (`"300s"`, `"1.5s"`) in ms, or undefined. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)s$/.exec(value);
  return match ? Number(match[1]) * 1000 : undefined;
}
