import { isbot } from 'isbot';

/** How a visit is classified; `bot` visits are neither counted nor recorded. */
export type AgentClass = 'bot' | 'desktop' | 'mobile' | 'tablet' | 'unknown';

/**
 * Classifies a User-Agent. Bots are recognised by `isbot`'s maintained list (crawlers, link
 * previewers, monitoring, HTTP libraries); the rest by the usual device markers.
 */
export function agentClass(userAgent: string | undefined): AgentClass {
  if (!userAgent) return 'unknown';
  let known = recent.get(userAgent);
  if (known === undefined) {
    known = classify(userAgent);
    // Real traffic repeats a few thousand User-Agents; remembering them skips isbot's large
    // regular expression on the redirect path. Forgetting all at once keeps this bounded.
    if (recent.size >= RECENT_LIMIT) recent.clear();
    recent.set(userAgent, known);
  }
  return known;
}

const RECENT_LIMIT = 5_000;
const recent = new Map<string, AgentClass>();

function classify(userAgent: string): AgentClass {
  if (isbot(userAgent)) return 'bot';
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
