import Bowser from 'bowser';
import { isbot } from 'isbot';
import { type AgentClass, boundedText, CLICK_VALUE_LIMITS } from './click-values.ts';

/** How a visit is classified; `bot` visits are neither counted nor recorded. */
export type { AgentClass } from './click-values.ts';

/** What the statistics keep of a User-Agent: its class (the device type), browser and OS names. */
export interface VisitorAgent {
  device: AgentClass;
  /** e.g. `Chrome`, `Safari`; null when not recognised or over 64 characters. */
  browser: string | null;
  /** e.g. `Windows`, `iOS`; null when not recognised or over 64 characters. */
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
    // this bounded, and so does leaving out the rare long User-Agent (a visitor may send 16 KiB).
    if (userAgent.length <= RECENT_AGENT_CHARS) {
      if (recent.size >= RECENT_LIMIT) recent.clear();
      recent.set(userAgent, known);
    }
  }
  return known;
}

/** The class of a User-Agent (see {@link describeAgent}). */
export function agentClass(userAgent: string | undefined): AgentClass {
  return describeAgent(userAgent).device;
}

/** Whether a User-Agent is a bot's (see {@link describeAgent}): its visits are redirected, never counted. */
export function isBot(userAgent: string | undefined): boolean {
  return agentClass(userAgent) === 'bot';
}

const RECENT_LIMIT = 5_000;
/** Real User-Agents are a few hundred characters; longer ones are described again each time. */
const RECENT_AGENT_CHARS = 1_024;
const recent = new Map<string, VisitorAgent>();

function describe(userAgent: string): VisitorAgent {
  if (isbot(userAgent)) return { device: 'bot', browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return {
    device: deviceOf(userAgent),
    browser: boundedText(parsed.browser.name, CLICK_VALUE_LIMITS.browser),
    os: boundedText(parsed.os.name, CLICK_VALUE_LIMITS.os),
  };
}

function deviceOf(userAgent: string): AgentClass {
  if (/iPad|Tablet|Nexus (7|9|10)|SM-T|Kindle|Silk/i.test(userAgent)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'mobile';
  return 'desktop';
}

/**
 * The host of a Referer header (never the whole URL, which may carry personal data); null when
 * there is none, or when it is longer than any DNS name (253 characters).
 */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    return boundedText(new URL(referer).hostname.toLowerCase(), CLICK_VALUE_LIMITS.referrerHost);
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
