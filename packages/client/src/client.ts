import type { AppRouter } from '@shortlinks/api';
import { createTRPCClient, httpBatchStreamLink, httpLink, splitLink } from '@trpc/client';
import { refuseNonJsonAnswers, toShortlinksError } from './errors.ts';
import type {
  ApiKeyList,
  AuditLogPage,
  AuditLogQuery,
  BulkCreateResult,
  BulkDeleteResult,
  BulkUpdateResult,
  Domain,
  DomainInput,
  DomainList,
  DomainUpdate,
  ExportQuery,
  GroupStats,
  ImportInput,
  ImportReport,
  KeyInput,
  Link,
  LinkBulkCreate,
  LinkBulkDelete,
  LinkBulkUpdate,
  LinkInput,
  LinkListQuery,
  LinkPage,
  LinkStats,
  LinkUpdate,
  NewApiKey,
  QrCode,
  QrCodeQuery,
  StatsQuery,
  Tag,
  TagInput,
  TagList,
  TagUpdate,
  UpsertedLink,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookDeliveryRef,
  WebhookInput,
  WebhookList,
  WebhookUpdate,
  WebhookWithSecret,
} from './types.ts';

export type ClientOptions = {
  /** The server's origin, e.g. `https://links.example.com` (the client adds `/trpc`). */
  baseUrl: string;
  /** A fetch implementation; defaults to the global one. */
  fetch?: typeof globalThis.fetch;
} & (
  | {
      /** An API key (`slk_…`). */
      apiKey: string;
    }
  | {
      /**
       * No key: the dashboard's own pages, signed in with the session cookie the browser sends to
       * its own origin. Every call carries the session's CSRF token (`X-CSRF-Token`), which the
       * server requires of a write made with the cookie (docs/security.md).
       */
      csrfToken: () => string;
    }
);

/**
 * Every call of the Shortlinks API. Each method is one procedure of the server's router, with its
 * input and result types (`surface.check.ts` fails to compile when a procedure has no method here,
 * or when a method's types drift from the router's). Every failure is a {@link ShortlinksError}.
 */
export interface ShortlinksClient {
  links: {
    create(input: LinkInput): Promise<Link>;
    /** Creates the link, or returns the live link with the same final destination (updated). */
    upsert(input: LinkInput): Promise<UpsertedLink>;
    list(query?: LinkListQuery): Promise<LinkPage>;
    /** By `lnk_` id, or `ext_` + external id (not URL-encoded: tRPC sends it as data). */
    get(id: string): Promise<Link>;
    update(input: LinkUpdate): Promise<Link>;
    delete(id: string): Promise<void>;
    /**
     * Bulk calls: each item is done as its single call would do it, on its own. They resolve with
     * every item's result whether all, some or none were done (`succeeded`, `failed`); they reject
     * only when the request itself is refused (no items, more than 100, a malformed change).
     */
    bulkCreate(input: LinkBulkCreate): Promise<BulkCreateResult>;
    bulkUpdate(input: LinkBulkUpdate): Promise<BulkUpdateResult>;
    bulkDelete(input: LinkBulkDelete): Promise<BulkDeleteResult>;
    /**
     * Every live link of the account as an export file (docs/import-export.md), in chunks of text
     * to write out as they come: `csv` (the default) or `jsonl`. Streamed, so memory stays flat.
     */
    export(query?: ExportQuery): Promise<AsyncIterable<string>>;
    /**
     * Imports a file's links (docs/import-export.md): `dry_run: true` checks every row and writes
     * nothing. Resolves with the report, refused rows included; rejects only when the file as a
     * whole cannot be read (`UNKNOWN_FORMAT`, `MALFORMED_FILE`) or is over the server's cap
     * (`PAYLOAD_TOO_LARGE`).
     */
    import(input: ImportInput): Promise<ImportReport>;
    /**
     * The link's QR code (docs/redirects.md): it encodes `short_url?qr=1`, so a visit from it is
     * counted as a scan. `data` is the SVG document, or the PNG in base64
     * (`Buffer.from(code.data, 'base64')`).
     */
    qr(id: string, query?: QrCodeQuery): Promise<QrCode>;
  };
  tags: {
    create(input: TagInput): Promise<Tag>;
    list(): Promise<TagList>;
    update(input: TagUpdate): Promise<Tag>;
    delete(id: string): Promise<void>;
  };
  /** Branded domains (docs/domains.md): add one, set its TXT record, verify it. */
  domains: {
    create(input: DomainInput): Promise<Domain>;
    list(): Promise<DomainList>;
    get(id: string): Promise<Domain>;
    update(input: DomainUpdate): Promise<Domain>;
    /** Looks the TXT record up now: `verified`, or `verification.error` saying what was found instead. */
    verify(id: string): Promise<Domain>;
    delete(id: string): Promise<void>;
  };
  /** Click statistics (docs/statistics.md); every query field is optional. */
  stats: {
    /** By `lnk_` id, or `ext_` + external id (not URL-encoded). */
    link(id: string, query?: StatsQuery): Promise<LinkStats>;
    tag(id: string, query?: StatsQuery): Promise<GroupStats>;
    account(query?: StatsQuery): Promise<GroupStats>;
  };
  /** API keys with scopes (docs/accounts.md): each call needs `keys.write`; a new key never has a scope its maker lacks. */
  keys: {
    /** The answer carries the key itself (`key`): nothing else shows it. */
    create(input: KeyInput): Promise<NewApiKey>;
    list(): Promise<ApiKeyList>;
    /** The key stops working at once, on every instance. */
    revoke(id: string): Promise<void>;
  };
  /** The audit log (docs/accounts.md): needs `audit.read` (and an owner's or admin's role); newest first. */
  audit: {
    list(query?: AuditLogQuery): Promise<AuditLogPage>;
  };
  /** Webhooks (docs/webhooks.md): deliveries signed by the Standard Webhooks scheme. */
  webhooks: {
    /** The answer carries the secret, as does {@link rotateSecret}'s: nothing else shows it. */
    create(input: WebhookInput): Promise<WebhookWithSecret>;
    list(): Promise<WebhookList>;
    get(id: string): Promise<Webhook>;
    update(input: WebhookUpdate): Promise<Webhook>;
    delete(id: string): Promise<void>;
    rotateSecret(id: string): Promise<WebhookWithSecret>;
    deliveries(id: string, query?: WebhookDeliveryQuery): Promise<WebhookDeliveryPage>;
    delivery(input: WebhookDeliveryRef): Promise<WebhookDeliveryDetail>;
    retryDelivery(input: WebhookDeliveryRef): Promise<WebhookDelivery>;
    test(id: string): Promise<WebhookDelivery>;
  };
}

/** The typed Shortlinks client: a misspelt field or a value outside an enum is a compile error. */
export function createClient(options: ClientOptions): ShortlinksClient {
  const { baseUrl, fetch } = options;
  const transport = {
    url: `${baseUrl.replace(/\/+$/, '')}/trpc`,
    headers: (): Record<string, string> =>
      'apiKey' in options ? { authorization: `Bearer ${options.apiKey}` } : { 'x-csrf-token': options.csrfToken() },
    fetch: refuseNonJsonAnswers(fetch ?? ((input, init) => globalThis.fetch(input, init))),
  };
  const trpc = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        // The export is a stream of chunks, which only the streaming link carries; one call a request.
        condition: (operation) => operation.path === 'links.export',
        true: httpBatchStreamLink({ ...transport, maxItems: 1 }),
        // One HTTP request per call (no batching), so statuses are those of the REST API.
        false: httpLink(transport),
      }),
    ],
  });
  /** The chunks of a stream, whose failure midway is a ShortlinksError like any other. */
  async function* streamed<T>(chunks: AsyncIterable<T>): AsyncGenerator<T, void, undefined> {
    try {
      yield* chunks;
    } catch (error) {
      throw toShortlinksError(error);
    }
  }
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toShortlinksError(error);
    }
  };

  return {
    links: {
      create: (input) => call(() => trpc.links.create.mutate(input)),
      upsert: (input) => call(() => trpc.links.upsert.mutate(input)),
      list: (query = {}) => call(() => trpc.links.list.query(query)),
      get: (id) => call(() => trpc.links.get.query({ id })),
      update: (input) => call(() => trpc.links.update.mutate(input)),
      delete: (id) => call(() => trpc.links.delete.mutate({ id })),
      bulkCreate: (input) => call(() => trpc.links.bulkCreate.mutate(input)),
      bulkUpdate: (input) => call(() => trpc.links.bulkUpdate.mutate(input)),
      bulkDelete: (input) => call(() => trpc.links.bulkDelete.mutate(input)),
      export: (query = {}) => call(async () => streamed(await trpc.links.export.query(query))),
      import: (input) => call(() => trpc.links.import.mutate(input)),
      qr: (id, query = {}) => call(() => trpc.links.qr.query({ ...query, id })),
    },
    tags: {
      create: (input) => call(() => trpc.tags.create.mutate(input)),
      list: () => call(() => trpc.tags.list.query({})),
      update: (input) => call(() => trpc.tags.update.mutate(input)),
      delete: (id) => call(() => trpc.tags.delete.mutate({ id })),
    },
    domains: {
      create: (input) => call(() => trpc.domains.create.mutate(input)),
      list: () => call(() => trpc.domains.list.query({})),
      get: (id) => call(() => trpc.domains.get.query({ id })),
      update: (input) => call(() => trpc.domains.update.mutate(input)),
      verify: (id) => call(() => trpc.domains.verify.mutate({ id })),
      delete: (id) => call(() => trpc.domains.delete.mutate({ id })),
    },
    stats: {
      link: (id, query = {}) => call(() => trpc.stats.link.query({ ...query, id })),
      tag: (id, query = {}) => call(() => trpc.stats.tag.query({ ...query, id })),
      account: (query = {}) => call(() => trpc.stats.account.query(query)),
    },
    keys: {
      create: (input) => call(() => trpc.keys.create.mutate(input)),
      list: () => call(() => trpc.keys.list.query({})),
      revoke: (id) => call(() => trpc.keys.revoke.mutate({ id })),
    },
    audit: {
      list: (query = {}) => call(() => trpc.audit.list.query(query)),
    },
    webhooks: {
      create: (input) => call(() => trpc.webhooks.create.mutate(input)),
      list: () => call(() => trpc.webhooks.list.query({})),
      get: (id) => call(() => trpc.webhooks.get.query({ id })),
      update: (input) => call(() => trpc.webhooks.update.mutate(input)),
      delete: (id) => call(() => trpc.webhooks.delete.mutate({ id })),
      rotateSecret: (id) => call(() => trpc.webhooks.rotateSecret.mutate({ id })),
      deliveries: (id, query = {}) => call(() => trpc.webhooks.deliveries.query({ ...query, id })),
      delivery: (input) => call(() => trpc.webhooks.delivery.query(input)),
      retryDelivery: (input) => call(() => trpc.webhooks.retryDelivery.mutate(input)),
      test: (id) => call(() => trpc.webhooks.test.mutate({ id })),
    },
  };
}
