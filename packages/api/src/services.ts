import type { Orm } from '@shortlinks/db';
import { AccountService } from './accounts/account-service.ts';
import { ApiKeyService } from './accounts/api-key-service.ts';
import { CallerCache } from './accounts/caller-cache.ts';
import { CacheCoherence } from './cache-coherence.ts';
import { DestinationChecker } from './destinations/destination-checker.ts';
import { hostOf } from './destinations/destination-policy.ts';
import { DenylistService } from './destinations/reputation/denylist-service.ts';
import { ReputationChain, type UrlReputation } from './destinations/reputation/reputation-chain.ts';
import { DomainDirectory } from './domains/domain-directory.ts';
import { DomainRechecks, DomainService } from './domains/domain-service.ts';
import { LinkDomains } from './domains/link-domains.ts';
import { ShortUrls } from './domains/short-urls.ts';
import { TxtLookup } from './domains/txt-lookup.ts';
import { LinkExportService } from './links/export/link-export.ts';
import { LinkImportService } from './links/import/link-import.ts';
import { SentFileImportService } from './links/import/sent-file-import.ts';
import { LinkBulkService } from './links/link-bulk-service.ts';
import { LinkReadCache } from './links/link-read-cache.ts';
import { LinkService } from './links/link-service.ts';
import { ClickRecorder, type ClickRecorderOptions } from './redirects/click-recorder.ts';
import { RedirectCache } from './redirects/redirect-cache.ts';
import { RedirectService } from './redirects/redirect-service.ts';
import { StatsService } from './stats/stats-service.ts';
import { TagService } from './tags/tag-service.ts';

export type { AccountView, NewAccount } from './accounts/account-service.ts';
export { API_KEY_PREFIX, type ApiKeyView, type Caller } from './accounts/api-key-service.ts';
export { CALLER_CACHE_MS } from './accounts/caller-cache.ts';
export { BULK_URL_CHECK_ROUNDS, BULK_URL_CHECKS_AT_ONCE } from './destinations/bulk-url-checks.ts';
export { IMPORT_FORMATS, type ImportedLink, type ImportFormat, type ImportRow, type RowProblem } from './links/import/import-row.ts';
export {
  CONFLICT_MODES,
  type ConflictMode,
  type ImportCounts,
  type ImportOptions,
  type ImportResult,
  type RowRefusal,
} from './links/import/link-import.ts';
export { LINK_READ_CACHE_MS, LinkReadCache } from './links/link-read-cache.ts';

export interface ServiceOptions {
  orm: Orm;
  /** Origin of short links, e.g. https://sho.rt (no trailing slash). */
  shortDomain: string;
  /**
   * Sources asked after the operator's stored denylist (which is always asked): the
   * environment's domain list and the configured remote service.
   */
  reputation?: UrlReputation | undefined;
  clicks?: ClickRecorderOptions;
  /** How long a caller may be answered from memory (CALLER_CACHE_MS); tests set it. */
  callerCacheMs?: number;
  /** How long a link read may be answered from memory (LINK_READ_CACHE_MS); tests set it. */
  linkReadCacheMs?: number;
  /** How long a link seen before the database became unreachable keeps redirecting (REDIRECT_STALE_IF_ERROR_SECONDS). */
  redirectStaleIfErrorMs?: number;
  /** The largest import file the API takes, in bytes (IMPORT_MAX_BYTES). */
  importMaxBytes?: number;
  /** DNS servers (`host:port`) for domain verification (DNS_SERVERS); none: the system's. */
  dnsServers?: readonly string[] | undefined;
  /** How often a verified domain's record is looked up again (DOMAIN_CHECK_INTERVAL_MINUTES). */
  domainCheckIntervalMs?: number | undefined;
}

/** Every domain service, built once per process. */
export interface Services {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  links: LinkService;
  linksBulk: LinkBulkService;
  linkExport: LinkExportService;
  linkImport: LinkImportService;
  /** Import files sent to the API (POST /links/import), applied by `linkImport`. */
  sentFileImport: SentFileImportService;
  tags: TagService;
  stats: StatsService;
  redirects: RedirectService;
  clicks: ClickRecorder;
  denylist: DenylistService;
  /** Every destination check: the stored denylist, then the configured sources (metrics observe it). */
  reputation: ReputationChain;
  /** What the process's caches forget, for its own writes and for the change announcements it hears. */
  coherence: CacheCoherence;
  /** Branded domains (docs/domains.md); `domains.directory` is every process's in-memory map of them. */
  domains: DomainService;
  /** The periodic re-check of verified domains' records, started with the server. */
  domainRechecks: DomainRechecks;
}

export function createServices({
  orm,
  shortDomain,
  reputation,
  clicks,
  callerCacheMs,
  linkReadCacheMs,
  redirectStaleIfErrorMs,
  importMaxBytes,
  dnsServers,
  domainCheckIntervalMs,
}: ServiceOptions): Services {
  const origin = shortDomain.replace(/\/+$/, '');
  const denylist = new DenylistService(orm);
  const chain = new ReputationChain(reputation ? [denylist, reputation] : [denylist]);
  const directory = new DomainDirectory(orm, hostOf(origin));
  const destinations = new DestinationChecker(hostOf(origin), chain, (host) => directory.isShortDomain(host));
  const caches = {
    redirects: new RedirectCache(),
    linkReads: new LinkReadCache(linkReadCacheMs === undefined ? {} : { ttlMs: linkReadCacheMs }),
    callers: new CallerCache(callerCacheMs === undefined ? {} : { ttlMs: callerCacheMs }),
    domains: directory,
  };
  // Every service that writes tells it what it changed, after commit.
  const coherence = new CacheCoherence(caches);
  const linkChanged = (slug: string) => coherence.linkChanged(slug);
  const callerChanged = (accountId: string) => coherence.callerChanged(accountId);
  const shortUrls = new ShortUrls(origin, directory);
  const links = new LinkService(orm, destinations, shortUrls, linkChanged, caches.linkReads, new LinkDomains(hostOf(origin), directory));
  const linkImport = new LinkImportService(links, destinations);
  const domains = new DomainService(orm, hostOf(origin), directory, new TxtLookup(dnsServers), destinations);
  return {
    accounts: new AccountService(orm, callerChanged),
    apiKeys: new ApiKeyService(orm, caches.callers, callerChanged),
    links,
    linksBulk: new LinkBulkService(orm, links, destinations),
    linkExport: new LinkExportService(orm, shortUrls),
    linkImport,
    sentFileImport: new SentFileImportService(linkImport, importMaxBytes),
    tags: new TagService(orm),
    stats: new StatsService(orm, shortUrls),
    redirects: new RedirectService(orm, {
      cache: caches.redirects,
      ...(redirectStaleIfErrorMs === undefined ? {} : { staleIfErrorMs: redirectStaleIfErrorMs }),
    }),
    clicks: new ClickRecorder(orm, { ...clicks, written: () => coherence.clicksWritten() }),
    denylist,
    reputation: chain,
    coherence,
    domains,
    domainRechecks: new DomainRechecks(domains, domainCheckIntervalMs),
  };
}
