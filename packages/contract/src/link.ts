import { z } from 'zod';
import {
  commentsField,
  destinationUrlField,
  expirationUrlField,
  expiresAtField,
  externalIdField,
  linkDomainField,
  slugField,
  tagColorField,
  tagIdsField,
  tagNamesField,
  titleField,
  utmField,
} from './fields.ts';
import { LIMITS } from './limits.ts';
import { PAGE_FIELDS } from './paging.ts';
import { maxClicksField, PreviewSchema, passwordField, previewField, RedirectRuleSchema, rulesField } from './smart-link-fields.ts';
import { CONTROL_CHARACTER, charCount, LONE_SURROGATE } from './text-rules.ts';

export const TagSummarySchema = z
  .object({ id: z.string(), name: z.string(), color: tagColorField })
  .meta({ id: 'TagSummary', example: { id: 'tag_4hG7Qx2LpZ', name: 'Campaigns', color: 'indigo' } });

export const LinkSchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `lnk_`.' }),
    // Always sent; optional in the schema only so the spec's list of required fields stays as it is.
    domain: z
      .string()
      .optional()
      .meta({ description: "The link's domain: a branded domain's name, or the server's own (SHORT_DOMAIN's host). Always present." }),
    short_url: z.string(),
    destination_url: z.string(),
    title: z.string(),
    slug: z.string(),
    external_id: z.string().optional(),
    comments: z.string().optional(),
    expires_at: z.number().optional(),
    expiration_url: z.string().optional(),
    // Smart links (issue #30): present only when set, as the spec's optional fields are.
    password_protected: z.literal(true).optional().meta({ description: 'Present (true) when the link has a password.' }),
    max_clicks: z.number().optional(),
    rules: z.array(RedirectRuleSchema).optional(),
    preview: PreviewSchema.optional(),
    tags: z.array(TagSummarySchema).meta({ description: 'Sorted by name.' }),
    click_count: z.number(),
    created_at: z.number(),
  })
  .meta({
    id: 'Link',
    example: {
      id: 'lnk_V1StGXR8Z5jdHi',
      domain: 'localhost',
      short_url: 'http://localhost:3000/spring',
      destination_url: 'https://example.com/launch?utm_source=newsletter',
      title: 'Spring launch',
      slug: 'spring',
      tags: [{ id: 'tag_4hG7Qx2LpZ', name: 'Campaigns', color: 'indigo' }],
      click_count: 0,
      created_at: 1795000000000,
    },
  });

export const UpsertedLinkSchema = LinkSchema.extend({ created: z.boolean() }).meta({ id: 'UpsertedLink' });

/** Body of POST /links and POST /links/upsert. */
export const CreateLinkBodySchema = z.strictObject({
  title: titleField,
  destination_url: destinationUrlField,
  slug: slugField.optional(),
  domain: linkDomainField.optional(),
  utm: utmField.optional(),
  tag_ids: tagIdsField.optional(),
  tag_names: tagNamesField.optional(),
  comments: commentsField.optional(),
  expires_at: expiresAtField.optional(),
  // An empty string means no fallback, like null: on an upsert that matches, the update rules
  // apply, where it removes the fallback (spec: PATCH expiration_url).
  expiration_url: z
    .union([z.literal(''), expirationUrlField])
    .nullable()
    .optional(),
  external_id: externalIdField.optional(),
  password: passwordField.optional(),
  max_clicks: maxClicksField.optional(),
  rules: rulesField.optional(),
  preview: previewField.optional(),
});

/**
 * Body of PATCH /links/{id}: the create body's fields, each optional (only the fields sent change),
 * without those that never change here: slug and domain (never) and external_id (upsert sets it).
 */
export const UpdateLinkBodySchema = CreateLinkBodySchema.omit({ slug: true, domain: true, external_id: true }).partial();

/**
 * The longest link reference taken. Over REST the value arrives URL-encoded: `ext_` plus 255
 * characters of up to 12 encoded characters each (`%F0%9F%9A%80`) must fit.
 */
export const LINK_REF_MAX_CHARS = 4096;

/** `{id}` in a link path: a `lnk_` id, or `ext_` followed by the external id. */
export const LinkRefSchema = z
  .string()
  .min(1)
  .max(LINK_REF_MAX_CHARS)
  .meta({ description: 'A `lnk_` id, or `ext_` followed by the URL-encoded external_id.', example: 'lnk_V1StGXR8Z5jdHi' });

/** What GET /links can sort by. */
export const LINK_SORTS = ['created_at', 'click_count', 'title'] as const;
export type LinkSort = (typeof LINK_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

/** The order a sort takes when none is asked for: newest and most clicked first, titles A to Z. */
export const DEFAULT_ORDER: Record<LinkSort, SortOrder> = { created_at: 'desc', click_count: 'desc', title: 'asc' };

export const ListLinksQuerySchema = z.strictObject({
  ...PAGE_FIELDS,
  tag_ids: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((id) => id.trim()).filter((id) => id !== ''))
    .pipe(z.array(z.string().max(100)).max(LIMITS.tagIdsFilter, `tag_ids may name at most ${LIMITS.tagIdsFilter} tags`))
    .optional()
    .meta({ description: 'Comma-separated tag ids (at most 20); links carrying any of them.' }),
  search: z
    .string()
    .trim()
    .refine((text) => charCount(text) <= LIMITS.searchChars, `search must be at most ${LIMITS.searchChars} characters`)
    .refine((text) => !CONTROL_CHARACTER.test(text), 'search must not contain control characters')
    .refine((text) => !LONE_SURROGATE.test(text), 'search must not contain half of a surrogate pair')
    // On the string, not on the optional around it: the OpenAPI document describes a query
    // parameter by its inner schema.
    .meta({
      description:
        'Text found, ignoring case, anywhere in the title, destination_url, slug or external_id (a substring: `%` and `_` are literal). ' +
        `Trimmed; empty means no search. At most ${LIMITS.searchChars} characters. With tag_ids: links matching both.`,
      maxLength: LIMITS.searchChars,
    })
    .optional(),
  domain: linkDomainField
    .meta({ description: "Links on this domain only: a branded domain's name, or the server's own (SHORT_DOMAIN's host)." })
    .optional(),
  sort: z
    .enum(LINK_SORTS, { error: `sort must be one of ${LINK_SORTS.join(', ')}` })
    .default('created_at')
    .meta({ description: 'created_at (the default), click_count or title (ignoring case). Ties are broken by id.' }),
  order: z
    .enum(['asc', 'desc'], { error: 'order must be asc or desc' })
    .meta({ description: 'asc or desc. Default: desc for created_at and click_count, asc for title.' })
    .optional(),
});

export const LinkPageSchema = z
  .object({
    links: z.array(LinkSchema),
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
    link_limit: z.number().nullable(),
  })
  .meta({ id: 'LinkPage' });

export type Link = z.infer<typeof LinkSchema>;
export type UpsertedLink = z.infer<typeof UpsertedLinkSchema>;
export type TagSummary = z.infer<typeof TagSummarySchema>;
export type CreateLinkBody = z.infer<typeof CreateLinkBodySchema>;
export type UpdateLinkBody = z.infer<typeof UpdateLinkBodySchema>;
export type ListLinksQuery = z.infer<typeof ListLinksQuerySchema>;
export type LinkPage = z.infer<typeof LinkPageSchema>;
