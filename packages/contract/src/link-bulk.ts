import { z } from 'zod';
import { ErrorBodySchema } from './error-body.ts';
import { LIMITS } from './limits.ts';
import { CreateLinkBodySchema, LINK_REF_MAX_CHARS, LinkSchema, UpdateLinkBodySchema } from './link.ts';

/**
 * Bulk calls (issue #14): POST, PATCH and DELETE /links/bulk. Each item is done as its single call
 * would do it, and answers what that call would answer (docs/api-decisions.md, "Bulk operations").
 */

/**
 * An item of a bulk body after its own check: its value, or the problems its single call would
 * refuse it for. A bad item fails alone instead of failing the whole request.
 */
export type CheckedItem<T> = { ok: true; value: T } | { ok: false; issues: z.core.$ZodIssue[]; input: unknown };

/**
 * `schema`, checked per item: its failure becomes a value (`ok: false`) rather than the
 * request's. The OpenAPI document and the typed client still see `schema` itself.
 */
function checkedAlone<S extends z.ZodType>(schema: S) {
  return schema
    .transform((value): CheckedItem<z.output<S>> => ({ ok: true, value }))
    .catch((ctx): CheckedItem<z.output<S>> => ({ ok: false, issues: ctx.error.issues, input: ctx.input }));
}

const itemCount = (what: string) => `${what} must hold 1 to ${LIMITS.bulkItems} items`;

/** `ids[2]`: the item of the request an issue is about, named as the request wrote it. */
const itemName = (path: readonly PropertyKey[] | undefined) =>
  (path ?? ['ids']).map((key, at) => (typeof key === 'number' ? `[${key}]` : `${at > 0 ? '.' : ''}${String(key)}`)).join('');

/** One link a bulk call names: a path's link reference (LinkRefSchema), whose refusals say which item. */
const bulkLinkRef = z
  .string({ error: (issue) => `${itemName(issue.path)} must be a string` })
  .min(1, { error: (issue) => `${itemName(issue.path)} must not be empty` })
  .max(LINK_REF_MAX_CHARS, { error: (issue) => `${itemName(issue.path)} must be at most ${LINK_REF_MAX_CHARS} characters` })
  .meta({ description: 'A `lnk_` id, or `ext_` followed by the external_id (as it is, not URL-encoded).', example: 'lnk_V1StGXR8Z5jdHi' });

/** The links a bulk call names: `lnk_` ids or `ext_` + external id, each once. */
const linkRefList = z
  .array(bulkLinkRef, { error: 'ids must be an array of link ids' })
  .min(1, itemCount('ids'))
  .max(LIMITS.bulkItems, itemCount('ids'))
  .superRefine((ids, ctx) => {
    // The same link under its two names (`lnk_…` and `ext_…`) takes a database to see: the
    // bulk service refuses it the same way (link-bulk-service.ts).
    const first = new Map<string, number>();
    ids.forEach((id, index) => {
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, index);
      else ctx.addIssue({ code: 'custom', path: [index], message: `ids[${index}] repeats ids[${earlier}]: name each link once` });
    });
  })
  .meta({ description: `1 to ${LIMITS.bulkItems} links, each a \`lnk_\` id or \`ext_\` + external id, each once.` });

/** Body of POST /links/bulk: each item under the create rules, done and answered on its own. */
export const BulkCreateLinksBodySchema = z.strictObject({
  links: z
    .array(checkedAlone(CreateLinkBodySchema), { error: 'links must be an array of link bodies' })
    .min(1, itemCount('links'))
    .max(LIMITS.bulkItems, itemCount('links'))
    .meta({ description: `1 to ${LIMITS.bulkItems} link bodies, each as for POST /links.` }),
});

/** Body of PATCH /links/bulk: one change (as for PATCH /links/{id}) applied to each link named. */
export const BulkUpdateLinksBodySchema = z.strictObject({
  ids: linkRefList,
  changes: UpdateLinkBodySchema,
});

/**
 * Query of DELETE /links/bulk: `ids=lnk_a,lnk_b` over REST, split on commas once decoded; a
 * repeated `ids=` arrives as an array, whose values are taken whole (the way to name an external id
 * holding a comma, docs/api-decisions.md); tRPC also takes an array.
 */
export const BulkDeleteLinksQuerySchema = z.strictObject({
  ids: z
    .union([z.string(), z.array(z.string())], { error: 'ids is required' })
    .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((id) => id.trim()).filter((id) => id !== ''))
    .pipe(linkRefList),
});

/** What went wrong with one item: the status and body its single call would have answered. */
const failedItem = {
  index: z.number().meta({ description: 'Position of the item in the request, from 0.' }),
  ok: z.literal(false),
  status: z.number().meta({ description: 'The HTTP status the single call would have answered.', example: 409 }),
  error: ErrorBodySchema,
};
const counts = {
  succeeded: z.number().meta({ description: 'Items done.' }),
  failed: z.number().meta({ description: 'Items refused (nothing of them was saved).' }),
};

export const BulkCreateItemSchema = z
  .discriminatedUnion('ok', [
    z.object({ index: failedItem.index, ok: z.literal(true), status: z.literal(201), link: LinkSchema }),
    z.object(failedItem),
  ])
  .meta({ id: 'BulkCreateItem' });

export const BulkCreateResultSchema = z
  .object({ ...counts, results: z.array(BulkCreateItemSchema).meta({ description: 'One per item, in request order.' }) })
  .meta({ id: 'BulkCreateResult' });

const itemId = z.string().meta({ description: 'The id as the request named it.' });

export const BulkUpdateItemSchema = z
  .discriminatedUnion('ok', [
    z.object({ index: failedItem.index, ok: z.literal(true), status: z.literal(200), id: itemId, link: LinkSchema }),
    z.object({ ...failedItem, id: itemId }),
  ])
  .meta({ id: 'BulkUpdateItem' });

export const BulkUpdateResultSchema = z
  .object({ ...counts, results: z.array(BulkUpdateItemSchema).meta({ description: 'One per id, in request order.' }) })
  .meta({ id: 'BulkUpdateResult' });

export const BulkDeleteItemSchema = z
  .discriminatedUnion('ok', [
    z.object({ index: failedItem.index, ok: z.literal(true), status: z.literal(204), id: itemId }),
    z.object({ ...failedItem, id: itemId }),
  ])
  .meta({ id: 'BulkDeleteItem' });

export const BulkDeleteResultSchema = z
  .object({ ...counts, results: z.array(BulkDeleteItemSchema).meta({ description: 'One per id, in request order.' }) })
  .meta({ id: 'BulkDeleteResult' });

export type BulkCreateLinksBody = z.output<typeof BulkCreateLinksBodySchema>;
export type BulkUpdateLinksBody = z.output<typeof BulkUpdateLinksBodySchema>;
export type BulkDeleteLinksQuery = z.output<typeof BulkDeleteLinksQuerySchema>;
export type BulkCreateItem = z.infer<typeof BulkCreateItemSchema>;
export type BulkCreateResult = z.infer<typeof BulkCreateResultSchema>;
export type BulkUpdateItem = z.infer<typeof BulkUpdateItemSchema>;
export type BulkUpdateResult = z.infer<typeof BulkUpdateResultSchema>;
export type BulkDeleteItem = z.infer<typeof BulkDeleteItemSchema>;
export type BulkDeleteResult = z.infer<typeof BulkDeleteResultSchema>;
