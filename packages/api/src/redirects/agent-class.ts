import Bowser from 'bowser';
import { isbot } from 'isbot';

/** How a visit is classified; `bot` visits are neither counted nor recorded. */
export type AgentClass = 'bot' | 'desktop' | 'mobile' | 'tablet' | 'unknown';

/** What the statistics keep of a User-Agent: its class (the device type), browser and OS names. */
export interface VisitorAgent {
  device: AgentClass;
  /** e.g. `Chrome`, `Safari`; null when not recognised. */
  browser: string | null;
  /** e.g. `Windows`, `iOS`; null when not recognised. */
  os: string | null;
}

const UNKNOWN_AGENT: VisitorAgent = { device: 'unknown', browser: null, os: null };

/**
 * Describes a User-Agent. Bots are recognised by `isbot`'s maintained list (crawlers, link
 * previewers, monitoring, HTTP libraries); device types by the usual markers; browser and OS
 * names by Bowser (MIT; ua-parser-js 2 is AGPL).
 */
export function describeAgent(userAgent: string | undefined): VisitorAgent {
  if (!userAgent) return UNKNOWN_AGENT;
  let known = recent.get(userAgent);
  if (known === undefined) {
    known = describe(userAgent);
    // Real traffic repeats a few thousand User-Agents; remembering them skips isbot's large
    // regular expression and Bowser's parse on the redirect path. Forgetting all at once keeps
    // this bounded.
    if (recent.size >= RECENT_LIMIT) recent.clear();
    recent.set(userAgent, known);
  }
  return known;
}

/** The class of a User-Agent (see {@link describeAgent}). */
export function agentClass(userAgent: string | undefined): AgentClass {
  return describeAgent(userAgent).device;
}

const RECENT_LIMIT = 5_000;
const recent = new Map<string, VisitorAgent>();

function describe(userAgent: string): VisitorAgent {
  if (isbot(userAgent)) return { device: 'bot', browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { device: deviceOf(userAgent), browser: parsed.browser.name || null, os: parsed.os.name || null };
}

function deviceOf(userAgent: string): AgentClass {
  if (/iPad|Tablet|Nexus (7|9|10)|SM-T|Kindle|Silk/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

/** The host of a Referer header (never the whole URL, which may carry personal data). */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * The country of a visit from the trusted proxy's header (e.g. Cloudflare's `CF-IPCountry`): an
 * ISO 3166-1 alpha-2 code, or null for anything else (`XX` unknown, `T1` Tor, garbage).
 */
export function countryCode(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.length !== 2) return null;
  const code = value.toUpperCase();
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' ? code : null;
}
