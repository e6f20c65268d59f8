/** What a URL safety reputation service says of a destination. */
export type ReputationVerdict = { flagged: false } | { flagged: true; reason: string };

/**
 * The URL safety check of the spec ("flagged destinations are refused"). One small interface,
 * so real services (Safe Browsing, Web Risk) can stand behind it. A source that cannot answer
 * either says "not flagged" (and warns) or throws {@link ReputationUnavailable}, as the operator's
 * failure policy says (docs/security.md).
 */
export interface UrlReputation {
  check(url: string): Promise<ReputationVerdict>;
}

/** A reputation service could not answer, and the failure policy is `fail-closed`. */
export class ReputationUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReputationUnavailable';
  }
}

/** The host of a URL as denylists compare it: lower case, no trailing dots (`EVIL.com.` is `evil.com`). */
export function comparableHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.+$/, '');
}

/** The host and every parent domain: `a.b.example.com` → `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
export function hostAndParents(host: string): string[] {
  const labels = host.split('.');
  return labels.map((_label, start) => labels.slice(start).join('.'));
}

/** A fixed list of refused domains from the environment (`URL_DENYLIST`); a domain covers its subdomains. */
export class LocalDenylist implements UrlReputation {
  readonly #domains: Set<string>;

  constructor(domains: Iterable<string> = []) {
    this.#domains = new Set([...domains].map((domain) => domain.trim().toLowerCase().replace(/\.+$/, '')).filter(Boolean));
  }

  async check(url: string): Promise<ReputationVerdict> {
    if (this.#domains.size === 0) return { flagged: false };
    const flagged = hostAndParents(comparableHost(new URL(url))).some((domain) => this.#domains.has(domain));
    return flagged ? { flagged: true, reason: 'on the denylist' } : { flagged: false };
  }
}

/** Several sources asked in order; the first that flags the URL decides. */
export class ReputationChain implements UrlReputation {
  readonly #sources: UrlReputation[];

  constructor(sources: UrlReputation[]) {
    this.#sources = sources;
  }

  async check(url: string): Promise<ReputationVerdict> {
    for (const source of this.#sources) {
      const verdict = await source.check(url);
      if (verdict.flagged) return verdict;
    }
    return { flagged: false };
  }
}
