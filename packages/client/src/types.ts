import type {
  ApiKeyListSchema,
  ApiKeySchema,
  AuditEntrySchema,
  AuditLogPageSchema,
  BulkCreateLinksBodySchema,
  BulkCreateResultSchema,
  BulkDeleteLinksQuerySchema,
  BulkDeleteResultSchema,
  BulkUpdateLinksBodySchema,
  BulkUpdateResultSchema,
  CreateDomainBodySchema,
  CreateKeyBodySchema,
  CreateLinkBodySchema,
  CreateTagBodySchema,
  CreateWebhookBodySchema,
  DomainListSchema,
  DomainSchema,
  ExportLinksQuerySchema,
  GroupStatsSchema,
  ImportLinksInputSchema,
  ImportReportSchema,
  LinkPageSchema,
  LinkQrCodeSchema,
  LinkQrQuerySchema,
  LinkSchema,
  LinkStatsSchema,
  ListAuditLogQuerySchema,
  ListLinksQuerySchema,
  ListWebhookDeliveriesQuerySchema,
  NewApiKeySchema,
  StatsQuerySchema,
  TagListSchema,
  TagSchema,
  UpdateDomainBodySchema,
  UpdateLinkBodySchema,
  UpdateTagBodySchema,
  UpdateWebhookBodySchema,
  UpsertedLinkSchema,
  WebhookDeliveryDetailSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from '@shortlinks/contract';
import type { z } from 'zod';

/** `keys.create`: a name, 1 or more scopes, and an optional expiry (epoch ms or null). */
export type KeyInput = z.input<typeof CreateKeyBodySchema>;
export type ApiKey = z.output<typeof ApiKeySchema>;
/** The answer of `keys.create`: the key itself (`key`) is shown only here. */
export type NewApiKey = z.output<typeof NewApiKeySchema>;
export type ApiKeyList = z.output<typeof ApiKeyListSchema>;

/** `audit.list`'s query: page, per_page, and the actor_id, resource_id and action filters (all optional). */
export type AuditLogQuery = z.input<typeof ListAuditLogQuerySchema>;
/** One change of the workspace: who did what to which resource, the fields it changed, from where, and when. */
export type AuditEntry = z.output<typeof AuditEntrySchema>;
export type AuditLogPage = z.output<typeof AuditLogPageSchema>;

/**
 * What a client call takes and returns, derived from the API's own schemas (the ones the server
 * validates with), so the published declarations need nothing from this repository.
 * `surface.check.ts` proves they are the router's types.
 */

/** Body of `links.create` and `links.upsert`. */
export type LinkInput = z.input<typeof CreateLinkBodySchema>;
/** The fields `links.update` changes; only those sent change. */
export type LinkChanges = z.input<typeof UpdateLinkBodySchema>;
/** `links.update`: the link (`lnk_` id or `ext_` + external id) and its changes. */
export type LinkUpdate = LinkChanges & { id: string };
export type LinkListQuery = z.input<typeof ListLinksQuerySchema>;
/** `links.bulkCreate`: 1 to 100 link bodies, each as for `links.create`. */
export type LinkBulkCreate = z.input<typeof BulkCreateLinksBodySchema>;
/** `links.bulkUpdate`: one change applied to 1 to 100 links. */
export type LinkBulkUpdate = z.input<typeof BulkUpdateLinksBodySchema>;
/** `links.bulkDelete`: 1 to 100 links (`lnk_` id or `ext_` + external id). */
export type LinkBulkDelete = z.input<typeof BulkDeleteLinksQuerySchema>;
export type TagInput = z.input<typeof CreateTagBodySchema>;
export type TagChanges = z.input<typeof UpdateTagBodySchema>;
/** `tags.update`: the tag id and its new name and/or colour. */
export type TagUpdate = TagChanges & { id: string };
export type StatsQuery = z.input<typeof StatsQuerySchema>;
/** `links.qr`: the image's format (`svg`, the default, or `png`), size, margin, error correction level and colours. */
export type QrCodeQuery = Omit<z.input<typeof LinkQrQuerySchema>, 'id'>;
/** A link's QR code: `data` is the SVG document, or the PNG in base64; `text` what it encodes (`short_url?qr=1`). */
export type QrCode = z.output<typeof LinkQrCodeSchema>;
/** `links.export`: the file format, `csv` (the default) or `jsonl`. */
export type ExportQuery = z.input<typeof ExportLinksQuerySchema>;
/**
 * `links.import`: an import file's text (any format `pnpm shortlinks import` reads, detected unless
 * `format` names one), what to do with rows naming existing links, and whether to write nothing.
 */
export type ImportInput = z.input<typeof ImportLinksInputSchema>;
/** What an import did (or, in a dry run, would do): the counts, and the rows applied and refused. */
export type ImportReport = z.output<typeof ImportReportSchema>;
/** One line of a `jsonl` export, parsed (docs/import-export.md). */
export type { ExportedLink } from '@shortlinks/contract';

export type Link = z.output<typeof LinkSchema>;
export type UpsertedLink = z.output<typeof UpsertedLinkSchema>;
export type LinkPage = z.output<typeof LinkPageSchema>;
/** Per item, in request order: what its single call answered (the link, or the status and error body). */
export type BulkCreateResult = z.output<typeof BulkCreateResultSchema>;
export type BulkUpdateResult = z.output<typeof BulkUpdateResultSchema>;
export type BulkDeleteResult = z.output<typeof BulkDeleteResultSchema>;
export type Tag = z.output<typeof TagSchema>;
export type TagList = z.output<typeof TagListSchema>;
export type TagSummary = Link['tags'][number];
export type TagColor = Tag['color'];
export type LinkStats = z.output<typeof LinkStatsSchema>;
/** `domains.create`: the domain name to add (docs/domains.md). */
export type DomainInput = z.input<typeof CreateDomainBodySchema>;
/** `domains.update`: the domain id and its root and not-found redirects, or whether it is the default. */
export type DomainUpdate = z.input<typeof UpdateDomainBodySchema> & { id: string };
export type Domain = z.output<typeof DomainSchema>;
export type DomainList = z.output<typeof DomainListSchema>;
export type GroupStats = z.output<typeof GroupStatsSchema>;
export type StatsInterval = LinkStats['interval'];

/** `webhooks.create`: where to send which events (docs/webhooks.md). */
export type WebhookInput = z.input<typeof CreateWebhookBodySchema>;
/** `webhooks.update`: the webhook id and the fields to change. */
export type WebhookUpdate = z.input<typeof UpdateWebhookBodySchema> & { id: string };
export type WebhookDeliveryQuery = z.input<typeof ListWebhookDeliveriesQuerySchema>;
/** One delivery of one webhook. */
export type WebhookDeliveryRef = { id: string; delivery_id: string };
export type Webhook = z.output<typeof WebhookSchema>;
/** A webhook with its secret, as created or rotated: the only answers that carry it. */
export type WebhookWithSecret = z.output<typeof WebhookWithSecretSchema>;
export type WebhookList = z.output<typeof WebhookListSchema>;
export type WebhookDelivery = z.output<typeof WebhookDeliverySchema>;
export type WebhookDeliveryDetail = z.output<typeof WebhookDeliveryDetailSchema>;
export type WebhookDeliveryPage = z.output<typeof WebhookDeliveryPageSchema>;
