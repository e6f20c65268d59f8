import type { ChangeHandlers } from '@shortlinks/db';
import type { CallerCache } from './accounts/caller-cache.ts';
import type { DomainDirectory } from './domains/domain-directory.ts';
import type { LinkReadCache } from './links/link-read-cache.ts';
import type { RedirectCache } from './redirects/redirect-cache.ts';

/** Every cache a process keeps in memory of what PostgreSQL holds. */
export interface ProcessCaches {
  /** Where a slug redirects (and that a slug is unknown). */
  redirects: RedirectCache;
  /** The answers of GET /links/{id} and GET /links, by account. */
  linkReads: LinkReadCache;
  /** Who an API key is. */
  callers: CallerCache;
  /** Every branded domain: which hosts the process serves (a process without the server's caches has none). */
  domains?: DomainDirectory;
}

/**
 * What each cache of the process forgets, and when: the one place that knows (docs/architecture.md,
 * "What a process keeps in memory"). A change is heard twice: announced by PostgreSQL to every
 * process ({@link changeHandlers}, for `ChangeListener`), and told at once by the process that made
 * it, so its own callers read their writes before the announcement arrives. Both say it in the
 * same words, and each is forgotten the same way. A new cache is wired here and nowhere else.
 *
 * Not wired, on purpose:
 * - The tag statistics' sums of closed days (stats/tag-stats-cache.ts) are kept in PostgreSQL,
 *   not in memory, keyed by a fingerprint of the tag's live links: a change of those links makes
 *   a new key, so there is nothing to forget, in any process.
 * - The remote reputation service's answers (destinations/reputation/remote-reputation.ts) are
 *   what that service said of a URL, which no change of ours alters; they age out on their own
 *   time. The operator's stored denylist is not cached at all: each check reads it (one indexed
 *   query, and only when a link is written), before the remote service is asked, so an entry
 *   added or removed counts at the next check in every process. Links already written are not
 *   checked again, and redirects never consult it, so no cache holds a verdict of the denylist.
 */
export class CacheCoherence {
  readonly #caches: ProcessCaches;

  constructor(caches: ProcessCaches) {
    this.#caches = caches;
  }

  /** The link at this slug was created, changed or deleted: where the slug redirects is read again. */
  linkChanged(slug: string): void {
    this.#caches.redirects.invalidate(slug);
  }

  /**
   * Something of the account's links changed (a link, a tag on one, a click count), or a mutation
   * of the account was answered here: it may have written, even when it failed (a lost commit).
   */
  accountLinksChanged(accountId: string): void {
    this.#caches.linkReads.forgetAccount(accountId);
  }

  /**
   * A key of the account was revoked, or the account's plan or limits changed: every caller is
   * looked up again, and the account's pages of links, which carry its link limit, read again.
   */
  callerChanged(accountId: string): void {
    this.#caches.callers.clear();
    this.#caches.linkReads.forgetAccount(accountId);
  }

  /**
   * This process wrote buffered clicks, of links of any number of accounts: their click counts are
   * part of a link read, so every link kept is read again (other processes hear it per account).
   */
  clicksWritten(): void {
    this.#caches.linkReads.clear();
  }

  /**
   * A branded domain was added, verified, stopped, changed or deleted: every domain is read again
   * (the process that changed it has already done so before answering).
   */
  domainChanged(log?: (message: string) => void): void {
    this.#caches.domains?.changed(log);
  }

  /**
   * Announcements may have been missed: everything is forgotten. While they do not arrive
   * (`connected` false) the redirects and link reads keep nothing they serve; the callers keep
   * what their own bound allows (CALLER_CACHE_MS).
   */
  reset(connected: boolean): void {
    this.#caches.redirects.reset(connected);
    this.#caches.linkReads.reset(connected);
    this.#caches.callers.clear();
    if (connected) this.#caches.domains?.changed();
  }

  /** What `new ChangeListener(databaseUrl, handlers)` calls as it hears announcements. */
  changeHandlers(log?: (message: string) => void): ChangeHandlers {
    return {
      linkChanged: (slug) => this.linkChanged(slug),
      callerChanged: (accountId) => this.callerChanged(accountId),
      accountLinksChanged: (accountId) => this.accountLinksChanged(accountId),
      domainChanged: () => this.domainChanged(log),
      reset: (connected) => this.reset(connected),
      ...(log ? { log } : {}),
    };
  }
}
