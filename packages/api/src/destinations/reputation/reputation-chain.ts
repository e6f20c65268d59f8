/** What a URL safety reputation service says of a destination. */
export type ReputationVerdict =
  /** `unchecked`: the source could not answer and the failure policy let the URL through. */
  { flagged: false; unchecked?: true } | { flagged: true; reason: string };

/**
 * The URL safety check of the spec ("flagged destinations are refused"). One small interface,
 * so real services (Safe Browsing, Web Risk) can stand behind it. A source that cannot answer
 * either says "not flagged" (and warns) or throws {@link ReputationUnavailable}, as the operator's
 * failure policy says (docs/security.md).
 */
export interface UrlReputation {
  /** What its checks are labelled with in metrics (`denylist`, `safe-browsing`, …). */
  readonly provider?: string;
  check(url: string): Promise<ReputationVerdict>;
}

/** How one source's check ended, as metrics count it. */
export type CheckResult = 'clean' | 'flagged' | 'unavailable' | 'error';

/** Told of every check of one source: which, how it ended, and how long it took. */
export type CheckObserver = (provider: string, result: CheckResult, seconds: number) => void;

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
  readonly provider = 'url_denylist';
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

/**
 * Several sources asked in order; the first that flags the URL decides. A chain given another
 * chain asks that one's sources in its place (the same order), so each is timed on its own.
 */
export class ReputationChain implements UrlReputation {
  readonly #sources: UrlReputation[];
  #observe: CheckObserver | undefined;

  constructor(sources: UrlReputation[]) {
    this.#sources = sources.flatMap((source) => (source instanceof ReputationChain ? source.#sources : [source]));
  }

  /** The metrics' observer of each source's checks (one: the server's). */
  observeChecks(observer: CheckObserver): void {
    this.#observe = observer;
  }

  async check(url: string): Promise<ReputationVerdict> {
    for (const source of this.#sources) {
      const verdict = await this.#checkOne(source, url);
      if (verdict.flagged) return verdict;
    }
    return { flagged: false };
  }

  async #checkOne(source: UrlReputation, url: string): Promise<ReputationVerdict> {
    const observe = this.#observe;
    if (!observe) return source.check(url);
    const started = performance.now();
    const provider = source.provider ?? source.constructor.name;
    try {
      const verdict = await source.check(url);
      observe(provider, verdict.flagged ? 'flagged' : verdict.unchecked ? 'unavailable' : 'clean', (performance.now() - started) / 1000);
      return verdict;
    } catch (error) {
      observe(provider, error instanceof ReputationUnavailable ? 'unavailable' : 'error', (performance.now() - started) / 1000);
      throw error;
    }
  }
}
