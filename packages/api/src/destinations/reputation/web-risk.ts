import { jsonObject, type RemoteAnswer, type RemoteLookup, UnexpectedAnswer } from './remote-reputation.ts';

export const WEB_RISK_URL = 'https://webrisk.googleapis.com';

export const WEB_RISK_THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE'];

/**
 * Google Web Risk `GET /v1/uris:search`, the commercial counterpart of Safe Browsing. A match is
 * cached until its `expireTime`, as the API asks.
 */
export class WebRiskLookup implements RemoteLookup {
  readonly name = 'Google Web Risk';
  readonly #base: string;
  readonly #apiKey: string;

  constructor({ apiKey, baseUrl = WEB_RISK_URL }: { apiKey: string; baseUrl?: string }) {
    this.#base = baseUrl.replace(/\/+$/, '');
    this.#apiKey = apiKey;
  }

  async lookup(url: string, signal: AbortSignal): Promise<RemoteAnswer> {
    const query = new URLSearchParams();
    for (const type of WEB_RISK_THREAT_TYPES) query.append('threatTypes', type);
    query.set('uri', url);
    query.set('key', this.#apiKey);
    const body = await jsonObject(await fetch(`${this.#base}/v1/uris:search?${query}`, { signal }), this.name);
    if (body.threat === undefined) return { verdict: { flagged: false } };
    const threat = body.threat as { threatTypes?: unknown; expireTime?: unknown } | null;
    if (typeof threat !== 'object' || threat === null || !Array.isArray(threat.threatTypes)) {
      throw new UnexpectedAnswer(`${this.name} answered a threat without threatTypes`);
    }
    const expires = typeof threat.expireTime === 'string' ? Date.parse(threat.expireTime) : Number.NaN;
    return {
      verdict: { flagged: true, reason: `${this.name}: ${threat.threatTypes.map(String).join(', ')}` },
      cacheForMs: Number.isNaN(expires) ? undefined : Math.max(0, expires - Date.now()),
    };
  }
}
