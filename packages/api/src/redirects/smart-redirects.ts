import type { Preview } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import type { VisitorAgent } from './agent-class.ts';
import { ClickLimits } from './click-limit.ts';
import { passwordMatches } from './link-password.ts';
import { isPreviewBot } from './link-previews.ts';
import { cookieNamed, LinkUnlocks, UNLOCK_COOKIE } from './link-unlocks.ts';
import { type GuessCounts, PasswordGuesses } from './password-guesses.ts';
import type { RedirectTarget } from './redirect-cache.ts';
import { type RuleVisit, ruleDestination } from './redirect-rules.ts';
import type { SmartRedirect } from './smart-redirect.ts';

/** A smart link's cached target: one with a password, click limit, rules or preview. */
export type SmartTarget = RedirectTarget & { smart: SmartRedirect };

/** A visit of a smart link, described once by the server's route. */
export interface SmartVisit {
  slug: string;
  /** The domain the visit came on (its Host): null for the server's own, else the branded domain's id. */
  domainId: string | null;
  now: number;
  /** GET and HEAD; a POST whose password was right is a GET here. */
  method: string;
  userAgent: string | undefined;
  agent: VisitorAgent;
  country: string | null;
  acceptLanguage: string | undefined;
  /** The query string without `?`. */
  query: string;
  /** The visitor holds the link's cookie, or has just given its password. */
  unlocked: boolean;
}

/** Builds a link's short URL from its domain and slug (domains/short-urls.ts's ShortUrls). */
export interface ShortUrlMaker {
  shortUrl(domainId: string | null, slug: string): string;
}

/** What a visit of a smart link gets. */
export type SmartOutcome =
  /** `counted`: record the click (the server's recordClick still leaves out bots and HEAD). */
  | { kind: 'redirect'; location: string; linkId: string; counted: boolean }
  | { kind: 'gone' }
  | { kind: 'password' }
  | { kind: 'preview'; preview: Preview; shortUrl: string };

/** What a password sent to a link comes to. */
export type PasswordAttempt = { kind: 'right'; cookie: string } | { kind: 'wrong' } | { kind: 'refused'; retryAfterSeconds: number };

/**
 * Smart links on the redirect path (issue #30, docs/redirects.md), in the order a visit meets
 * them: an expired link is expired; a link-preview bot gets the preview; a visitor who has not
 * unlocked a password-protected link gets the form; the first rule that holds picks the
 * destination; a click limit takes one of its redirects, or the link behaves as expired.
 * Plain links never come here: their cached entry has no smart fields (the fast path's one check).
 */
export class SmartRedirects {
  readonly clickLimits: ClickLimits;
  readonly unlocks: LinkUnlocks;
  #guesses: PasswordGuesses;
  /** A link's short URL on its domain (domains/short-urls.ts): what a preview names. */
  readonly #shortUrls: ShortUrlMaker;

  constructor(orm: Orm, shortUrls: ShortUrlMaker, guesses = new PasswordGuesses()) {
    this.clickLimits = new ClickLimits(orm);
    this.unlocks = new LinkUnlocks(orm);
    this.#guesses = guesses;
    this.#shortUrls = shortUrls;
  }

  /**
   * Counts wrong passwords in the server's rate-limit counters (Redis with several instances), so
   * the guessing limits hold across instances; until then, in this process's memory.
   */
  countGuessesIn(counts: GuessCounts): void {
    this.#guesses = new PasswordGuesses({ counts });
  }

  async visit(target: SmartTarget, visit: SmartVisit): Promise<SmartOutcome> {
    const { smart } = target;
    if (target.expiresAt !== null && visit.now >= target.expiresAt) return expired(target, true);
    const limited = smart.maxClicks;
    const bot = visit.agent.device === 'bot';
    if (smart.preview !== null && isPreviewBot(visit.userAgent)) {
      if (limited !== null && (await this.clickLimits.reached(target.linkId, limited))) return expired(target, false);
      return { kind: 'preview', preview: smart.preview, shortUrl: this.#shortUrls.shortUrl(visit.domainId, visit.slug) };
    }
    if (smart.passwordHash !== null && !visit.unlocked) {
      if (limited !== null && (await this.clickLimits.reached(target.linkId, limited))) return expired(target, false);
      return { kind: 'password' };
    }
    const location = destinationOf(target, visit);
    if (limited !== null) {
      // Counted as click_count counts: a bot's visit or a HEAD takes none of the redirects.
      const counts = visit.method === 'GET' && !bot;
      const left = counts ? await this.clickLimits.take(target.linkId, limited) : !(await this.clickLimits.reached(target.linkId, limited));
      if (!left) return expired(target, false);
    }
    return { kind: 'redirect', location, linkId: target.linkId, counted: true };
  }

  /**
   * Whether the request alone decides the visit, without waiting for anything: then it is a
   * redirect to {@link destinationOf}, which the server's fast path answers (docs/redirects.md,
   * "The fast path"). The steps of {@link visit} in its order, each either passed the same way or
   * left to it: a click limit (a round trip to PostgreSQL), an expired link, a preview bot's visit
   * of a link with a preview, and a password the cookie does not unlock (or whose key is not
   * read yet) are {@link visit}'s, on Fastify's route.
   */
  redirectsAtOnce(target: SmartTarget, userAgent: string | undefined, cookieHeader: string | undefined, now: number): boolean {
    const { smart } = target;
    if (smart.maxClicks !== null || (target.expiresAt !== null && now >= target.expiresAt)) return false;
    if (smart.preview !== null && isPreviewBot(userAgent)) return false;
    if (smart.passwordHash === null) return true;
    return this.unlocks.unlocksAtOnce(cookieNamed(cookieHeader, UNLOCK_COOKIE), target.linkId, smart.passwordHash, now) === true;
  }

  /** Whether the Cookie header holds this link's valid unlock cookie. */
  unlocked(target: SmartTarget, cookieHeader: string | undefined, now: number): Promise<boolean> | boolean {
    const hash = target.smart.passwordHash;
    if (hash === null) return true;
    const value = cookieNamed(cookieHeader, UNLOCK_COOKIE);
    return value === undefined ? false : this.unlocks.unlocks(value, target.linkId, hash, now);
  }

  /** Checks a password sent to the link's form, within the guessing limits (password-guesses.ts). */
  async tryPassword(target: SmartTarget, password: string, visitor: string, now: number): Promise<PasswordAttempt> {
    const hash = target.smart.passwordHash;
    if (hash === null) return { kind: 'wrong' };
    const retryAfterSeconds = await this.#guesses.refusal(target.linkId, visitor);
    if (retryAfterSeconds !== undefined) return { kind: 'refused', retryAfterSeconds };
    if (!(await passwordMatches(hash, password))) {
      await this.#guesses.wrong(target.linkId, visitor);
      return { kind: 'wrong' };
    }
    return { kind: 'right', cookie: await this.unlocks.cookieValue(target.linkId, hash, now) };
  }
}

/**
 * Where an unlocked visit within the click limit goes: the first rule that holds, else the
 * link's destination. `visit` is read only when the link has rules.
 */
export function destinationOf(target: SmartTarget, visit: RuleVisit | undefined): string {
  const { rules } = target.smart;
  return (rules !== null && visit !== undefined && ruleDestination(rules, visit)) || target.destination;
}

/**
 * The link as expired: its fallback, else the expired page. `counted`: a visit sent on to the
 * fallback of a link past expires_at is a click, as for a plain link; one past its click limit
 * is not, so click_count never passes max_clicks.
 */
function expired(target: SmartTarget, counted: boolean): SmartOutcome {
  return target.expirationUrl ? { kind: 'redirect', location: target.expirationUrl, linkId: target.linkId, counted } : { kind: 'gone' };
}
