import type { Orm } from '@shortlinks/db';
import { AccountService } from './accounts/account-service.ts';
import { ApiKeyService } from './accounts/api-key-service.ts';
import { CallerCache } from './accounts/caller-cache.ts';
import { ConnectService } from './accounts/connect-service.ts';
import { KeyManagement } from './accounts/key-management.ts';
import { AuditLogService } from './audit/audit-log-service.ts';
import { AuditOutlet } from './audit/audit-outlet.ts';
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
import { Changes } from './events/change-log.ts';
import { LinkExportService } from './links/export/link-export.ts';
import { LinkImportService } from './links/import/link-import.ts';
import { SentFileImportService } from './links/import/sent-file-import.ts';
import { LinkBulkService } from './links/link-bulk-service.ts';
import { LinkReadCache } from './links/link-read-cache.ts';
import { LinkService } from './links/link-service.ts';
import { QrCodeService } from './links/qr-code.ts';
import { InvitationService } from './people/invitation-service.ts';
import type { Mailer } from './people/mailer.ts';
import { MemberService } from './people/member-service.ts';
import { PasswordLinkService } from './people/password-links.ts';
import { SessionService } from './people/session-service.ts';
import { SignInService } from './people/sign-in-service.ts';
import { TwoFactorService } from './people/two-factor-service.ts';
import { UserService } from './people/user-service.ts';
import { ClickRecorder, type ClickRecorderOptions } from './redirects/click-recorder.ts';
import { RedirectCache } from './redirects/redirect-cache.ts';
import { RedirectService } from './redirects/redirect-service.ts';
import { SmartRedirects } from './redirects/smart-redirects.ts';
import { bundledGeoDatabases, GeoLookup } from './stats/geo-lookup.ts';
import { StatsService } from './stats/stats-service.ts';
import { TagService } from './tags/tag-service.ts';
import { WebhookOutbox } from './webhooks/webhook-outbox.ts';
import { WebhookQueue } from './webhooks/webhook-queue.ts';
import { WebhookService } from './webhooks/webhook-service.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './webhooks/webhook-settings.ts';

export type { AccountView, NewAccount } from './accounts/account-service.ts';
export { API_KEY_PREFIX, type ApiKeyView, type Caller } from './accounts/api-key-service.ts';
export type { CallerSession, CallerUser } from './accounts/caller.ts';
export { CALLER_CACHE_MS } from './accounts/caller-cache.ts';
export { type Acting, actByDefault, actingAs, COMMAND_LINE_ACTING, currentActing, SERVER_ACTING } from './audit/acting.ts';
export { BULK_URL_CHECK_ROUNDS, BULK_URL_CHECKS_AT_ONCE, placesFor } from './destinations/bulk-url-checks.ts';
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
export { type PasswordLinkPurpose, passwordLinkUrl } from './people/password-links.ts';
export { isRole, ROLES, type Role } from './people/roles.ts';
export { SESSION_IDLE_MS, SESSION_TOKEN_PREFIX } from './people/session-service.ts';
export type { SignInAttempts, WebExchange } from './people/sign-in-attempts.ts';
export { DEFAULT_LOG_DAYS, DEFAULT_RETRY_DELAYS, type WebhookSettings } from './webhooks/webhook-settings.ts';

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
  /** The dashboard's public address (PUBLIC_URL + /app), which invitation links start with. */
  dashboardUrl?: string;
  /** Mails invitation links (SMTP_URL); unset: the inviter hands them over. */
  mailer?: Mailer | undefined;
  /** WEBHOOK_RETRY_DELAYS, WEBHOOK_LOG_DAYS, WEBHOOK_ALLOW_PRIVATE_TARGETS (docs/webhooks.md). */
  webhooks?: Partial<WebhookSettings>;
}

/** Every domain service, built once per process. */
export interface Services {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  /** The keys API: keys made, listed and revoked by people and keys within their scopes (docs/accounts.md). */
  keys: KeyManagement;
  /** Connect: a client (the extension) gets a key a signed-in person approved (docs/accounts.md). */
  connect: ConnectService;
  links: LinkService;
  linksBulk: LinkBulkService;
  linkExport: LinkExportService;
  linkImport: LinkImportService;
  /** Import files sent to the API (POST /links/import), applied by `linkImport`. */
  sentFileImport: SentFileImportService;
  tags: TagService;
  stats: StatsService;
  /** Links' QR codes (GET /links/{id}/qr). */
  qrCodes: QrCodeService;
  redirects: RedirectService;
  /** Passwords, click limits, rules and previews on the redirect path (issue #30). */
  smartRedirects: SmartRedirects;
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
  webhooks: WebhookService;
  /** Sends the webhooks' deliveries; the server starts and stops it (build-server.ts). */
  webhookQueue: WebhookQueue;
  /** People (docs/accounts.md): who they are and their passwords. */
  users: UserService;
  /** Browser sessions, kept in PostgreSQL. */
  sessions: SessionService;
  /** Signing in and out of the dashboard. */
  signIn: SignInService;
  /** The people of a workspace and their roles; renaming and deleting a workspace. */
  members: MemberService;
  /** One-time links that set a password (the first owner, a reset). */
  passwordLinks: PasswordLinkService;
  /** Invitations to a workspace, by email, with a role. */
  invitations: InvitationService;
  /** Two-factor sign-in: enrolment, codes, the second step of a sign-in, the workspace's rule. */
  twoFactor: TwoFactorService;
  /** The audit log (docs/accounts.md): listed here, written by the change log's audit outlet. */
  auditLog: AuditLogService;
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
  dashboardUrl,
  mailer,
  webhooks,
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
  // Every change is recorded in its transaction, for each outlet (events/): the webhooks' outbox,
  // and the audit log, always on (audit/).
  const webhookSettings = { ...DEFAULT_WEBHOOK_SETTINGS, ...webhooks };
  const changes = new Changes([new WebhookOutbox(), new AuditOutlet()]);
  const links = new LinkService(
    orm,
    destinations,
    shortUrls,
    linkChanged,
    caches.linkReads,
    new LinkDomains(hostOf(origin), directory),
    changes,
  );
  const linkImport = new LinkImportService(links, destinations);
  const apiKeys = new ApiKeyService(orm, caches.callers, callerChanged, changes);
  const domains = new DomainService(orm, hostOf(origin), directory, new TxtLookup(dnsServers), destinations, changes);
  const sessions = new SessionService(orm, caches.callers, callerChanged);
  const users = new UserService(orm, sessions);
  const passwordLinks = new PasswordLinkService(orm, users, changes);
  const signIn = new SignInService(users, sessions, passwordLinks);
  const twoFactor = new TwoFactorService(orm, callerChanged, changes);
  signIn.secondStep = (web, userId) => twoFactor.requireSecondStep(web, userId);
  return {
    auditLog: new AuditLogService(orm),
    twoFactor,
    users,
    sessions,
    signIn,
    invitations: new InvitationService(orm, users, signIn, {
      dashboardUrl: dashboardUrl ?? `${origin}/app`,
      mailer,
      secondFactorOn: (userId) => twoFactor.isEnabled(userId),
      changes,
    }),
    members: new MemberService(orm, sessions, callerChanged, changes),
    passwordLinks,
    accounts: new AccountService(orm, callerChanged, changes),
    apiKeys,
    keys: new KeyManagement(apiKeys),
    connect: new ConnectService(orm, apiKeys),
    links,
    linksBulk: new LinkBulkService(orm, links, destinations),
    linkExport: new LinkExportService(orm, shortUrls),
    linkImport,
    sentFileImport: new SentFileImportService(linkImport, importMaxBytes),
    tags: new TagService(orm, changes),
    stats: new StatsService(orm, shortUrls),
    qrCodes: new QrCodeService(links),
    redirects: new RedirectService(orm, {
      cache: caches.redirects,
      ...(redirectStaleIfErrorMs === undefined ? {} : { staleIfErrorMs: redirectStaleIfErrorMs }),
    }),
    smartRedirects: new SmartRedirects(orm, shortUrls),
    // A plain install places clicks with the bundled IP database (docs/statistics.md).
    clicks: new ClickRecorder(orm, { geo: new GeoLookup(bundledGeoDatabases()), ...clicks, written: () => coherence.clicksWritten() }),
    denylist,
    reputation: chain,
    coherence,
    domains,
    domainRechecks: new DomainRechecks(domains, domainCheckIntervalMs),
    webhooks: new WebhookService(orm, hostOf(origin), webhookSettings, changes),
    webhookQueue: new WebhookQueue(orm, webhookSettings, changes),
  };
}
