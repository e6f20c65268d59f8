/** What a URL safety reputation service says of a destination. */
export type ReputationVerdict = { flagged: false } | { flagged: true; reason: string };

/**
 * The URL safety check of the spec ("flagged destinations are refused"). One small interface,
 * so real services (Safe Browsing, Web Risk) can stand behind it.
 */
export interface UrlReputation {
  check(url: string): Promise<ReputationVerdict>;
}

/** The default reputation source: an operator's list of refused domains (a domain covers its subdomains). */
export class LocalDenylist implements UrlReputation {
  readonly #domains: Set<string>;

  constructor(domains: Iterable<string> = []) {
    this.#domains = new Set([...domains].map((domain) => domain.trim().toLowerCase().replace(/\.+$/, '')).filter(Boolean));
  }

  async check(url: string): Promise<ReputationVerdict> {
    if (this.#domains.size === 0) return { flagged: false };
    const labels = new URL(url).hostname.toLowerCase().replace(/\.+$/, '').split('.');
    for (let start = 0; start < labels.length; start++) {
      if (this.#domains.has(labels.slice(start).join('.'))) return { flagged: true, reason: 'on the denylist' };
    }
    return { flagged: false };
  }
}
