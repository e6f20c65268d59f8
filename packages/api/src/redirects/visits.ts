import type { DomainDirectory, HostDomain, ServedDomain } from '../domains/domain-directory.ts';
import { countryCode, describeAgent, referrerHost } from './agent-class.ts';
import type { ClickRecorder } from './click-recorder.ts';
import { isQrScan } from './qr-scan.ts';
import type { RuleVisit } from './redirect-rules.ts';
import type { RedirectOutcome, RedirectService } from './redirect-service.ts';
import { destinationOf, type PasswordAttempt, type SmartOutcome, type SmartRedirects, type SmartTarget } from './smart-redirects.ts';
import { VisitLimiter } from './visit-limiter.ts';

/** A visit's request headers as Node gives them: only their shape, the API package has no HTTP. */
export interface VisitHeaders {
  readonly 'user-agent'?: string | undefined;
  readonly referer?: string | undefined;
  readonly [name: string]: string | string[] | undefined;
}

/** What a server says of its visits: the limit per visitor and where the country comes from. */
export interface VisitSettings {
  /** Visits per visitor address and window (`REDIRECT_RATE_LIMIT`, docs/security.md). */
  limit: number;
  windowMs: number;
  /** Addresses counted at most; the least recently seen are forgotten first. */
  trackedAddresses: number;
  /** Lower-cased header a trusted proxy sets to the visitor's country (statistics only); none: unknown. */
  countryHeader?: string | undefined;
}

/**
 * Everything a short-link visit needs of this package, in one place: where the slug leads, whether
 * the visitor is within the limit, and the click. The server answers the visit (on its fast path
 * for cached links and on its Fastify route for the rest, docs/redirects.md) and calls here once
 * per step; the visitor's description (bot or not, browser, OS, referrer host, country) and the
 * click are made here, from the request's raw headers, so no step goes back to the server.
 *
 * The hottest path of the server calls this: no step allocates more than the click it records,
 * makes a closure or awaits (docs/performance.md).
 */
export class Visits {
  readonly #redirects: RedirectService;
  readonly #smart: SmartRedirects;
  readonly #clicks: ClickRecorder;
  readonly #limiter: VisitLimiter;
  readonly #countryHeader: string | undefined;
  readonly #domains: DomainDirectory | undefined;

  constructor(
    {
      redirects,
      smartRedirects,
      clicks,
      domains,
    }: { redirects: RedirectService; smartRedirects: SmartRedirects; clicks: ClickRecorder; domains?: DomainDirectory },
    settings: VisitSettings,
  ) {
    this.#redirects = redirects;
    this.#smart = smartRedirects;
    this.#clicks = clicks;
    this.#domains = domains;
    this.#limiter = new VisitLimiter(settings.limit, settings.windowMs, settings.trackedAddresses);
    this.#countryHeader = settings.countryHeader;
  }

  /** Visits per address and window: what a refusal says its limit is. */
  get limit(): number {
    return this.#limiter.max;
  }

  /**
   * The domain a visit's `Host` header names, from memory (docs/domains.md): a verified domain,
   * the server's own (null), or neither (undefined: 404, nothing looked up).
   */
  hostDomain(host: string | undefined): HostDomain {
    return this.#domains === undefined ? null : this.#domains.hostDomain(host);
  }

  /** The verified domain of this name (lower case), if this server serves it: what a TLS proxy may get a certificate for. */
  servedDomain(name: string): ServedDomain | undefined {
    return this.#domains?.served(name);
  }

  /**
   * Where `slug` leads at `now`, from the redirect cache alone; undefined when it is not cached.
   * `slug` is the slug's key on its domain (redirect-key.ts): the slug itself on the server's own.
   */
  resolveCached(slug: string, now: number): RedirectOutcome | undefined {
    return this.#redirects.resolveCached(slug, now);
  }

  /** Where `slug` leads at `now`, from the cache or from PostgreSQL (docs/redirects.md). */
  resolve(slug: string, now: number): Promise<RedirectOutcome> {
    return this.#redirects.resolve(slug, now);
  }

  /**
   * Counts a visit from `address` (the client's address as the rate limits count it) at `now`:
   * undefined when it is within the limit, else the whole seconds until its window ends.
   */
  countVisit(address: string, now: number): number | undefined {
    return this.#limiter.countVisit(address, now);
  }

  /**
   * Where a visit of a smart link (a password, click limit, rules or preview: smart-redirects.ts)
   * leads, or what page it gets. `unlocked`: the visitor holds the link's cookie or just gave its
   * password ({@link unlocked}, {@link tryPassword}). On Fastify's route; the fast path asks
   * {@link smartRedirectAtOnce}.
   */
  async smartVisit(
    target: SmartTarget,
    visit: {
      slug: string;
      /** The visit's domain (its Host): null for the server's own, else the branded domain's id. */
      domainId: string | null;
      now: number;
      method: string;
      headers: VisitHeaders;
      query: string;
      /** The client's address, as Fastify's `request.ip` gives it: a `country` rule may look it up. */
      ip: string;
      unlocked: boolean;
    },
  ): Promise<SmartOutcome> {
    const country = this.#country(visit.headers) ?? (target.smart.rules?.readsCountry ? await this.#clicks.geo.country(visit.ip) : null);
    return this.#smart.visit(target, {
      ...this.#ruleVisit(visit.headers, visit.query, visit.now, country),
      slug: visit.slug,
      domainId: visit.domainId,
      method: visit.method,
      userAgent: visit.headers['user-agent'],
      unlocked: visit.unlocked,
    });
  }

  /**
   * Where a visit of a smart link goes when the request alone decides it (no click limit, not
   * expired, no preview for this visitor, no password or a valid cookie: smart-redirects.ts's
   * `redirectsAtOnce`); undefined when {@link smartVisit} must (on Fastify's route). The fast path's
   * question: synchronous, and the User-Agent, Accept-Language and query are read only when the
   * link has rules, the address (`ip`) only when a rule names a country and no trusted header
   * gives one (until the IP database is open, the route answers). `target`: the request line's
   * path and query.
   */
  smartRedirectAtOnce(smartTarget: SmartTarget, headers: VisitHeaders, target: string, ip: string, now: number): string | undefined {
    const userAgent = headers['user-agent'];
    const cookie = headers.cookie;
    if (!this.#smart.redirectsAtOnce(smartTarget, userAgent, Array.isArray(cookie) ? cookie.join('; ') : cookie, now)) return undefined;
    const { rules } = smartTarget.smart;
    if (rules === null) return smartTarget.destination;
    let country = this.#country(headers);
    if (country === null && rules.readsCountry) {
      const found = this.#clicks.geo.countryAtOnce(ip);
      if (found === undefined) return undefined;
      country = found;
    }
    const query = target.indexOf('?');
    return destinationOf(smartTarget, this.#ruleVisit(headers, query < 0 ? '' : target.slice(query + 1), now, country));
  }

  /** The visit as rules see it (redirect-rules.ts). */
  #ruleVisit(headers: VisitHeaders, query: string, now: number, country: string | null): RuleVisit {
    const language = headers['accept-language'];
    return {
      now,
      agent: describeAgent(headers['user-agent']),
      country,
      acceptLanguage: Array.isArray(language) ? language.join(',') : language,
      query,
    };
  }

  /** Whether the request's cookies unlock the smart link (a link without a password is always unlocked). */
  unlocked(target: SmartTarget, headers: VisitHeaders, now: number): Promise<boolean> | boolean {
    const cookie = headers.cookie;
    return this.#smart.unlocked(target, Array.isArray(cookie) ? cookie.join('; ') : cookie, now);
  }

  /** A password sent to the link's form by `visitor` (the address as the rate limits count it). */
  tryPassword(target: SmartTarget, password: string, visitor: string, now: number): Promise<PasswordAttempt> {
    return this.#smart.tryPassword(target, password, visitor, now);
  }

  /** The visitor's country, as clicks record it and rules match it; null when unknown. */
  #country(headers: VisitHeaders): string | null {
    const countryHeader = this.#countryHeader;
    return countryHeader ? countryCode(headers[countryHeader]) : null;
  }

  /**
   * Records a redirected visit as a click, unless it is a HEAD request or a bot's
   * (docs/redirects.md). The client address `ip` is only hashed with the day's salt
   * (docs/statistics.md), never stored. Says whether the visitor is a bot, which the server's
   * counts of visits need. `target`, the request line's path and query, tells a scan of the link's
   * QR code (`?qr=1`) from a click.
   */
  recordClick(linkId: string, now: number, method: string | undefined, headers: VisitHeaders, ip: string, target?: string): boolean {
    const userAgent = headers['user-agent'];
    const agent = describeAgent(userAgent);
    if (agent.device === 'bot') return true;
    if (method !== 'GET') return false;
    this.#clicks.record({
      linkId,
      at: now,
      referrerHost: referrerHost(headers.referer),
      agent,
      country: this.#country(headers),
      clientIp: ip,
      userAgent,
      trigger: isQrScan(target) ? 'qr' : 'link',
    });
    return false;
  }
}
