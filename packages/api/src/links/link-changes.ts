import type { TagSummary } from '@shortlinks/contract';
import { applyExpiry, type ExpiryChange, type ExpiryState, NO_EXPIRY } from './expiry.ts';
import type { LinkRow } from './link-reads.ts';
import { changedSmartFields, keepsSmartFields, type SmartChange } from './smart-link-fields.ts';

/** A link with the tags it carries, in the API's order (by name). */
export type TaggedLink = LinkRow & { tags: TagSummary[] };

/** A link to create, its URLs already checked: they wait on the reputation service, so never inside a transaction. */
export interface NewLink {
  /** Absent: a random one is drawn. */
  slug: string | undefined;
  /** The domain's name as sent; absent: the account's default domain, or the server's (docs/domains.md). */
  domain?: string | undefined;
  /** The domain already resolved (an import's row): its id, or null for the server's own. */
  domainId?: string | null | undefined;
  /** The final destination (utm merged in). */
  destination_url: string;
  title: string;
  external_id: string | undefined;
  comments: string | null;
  expiry: ExpiryChange;
  tag_ids?: readonly string[] | undefined;
  tag_names?: readonly string[] | undefined;
  /** The smart fields (smart-link-fields.ts), checked and hashed; absent ones unset. */
  smart?: SmartChange | undefined;
  /** An import keeps the link's age; the API lets the database date it. */
  created_at?: Date | undefined;
  /** An import keeps a link that arrives already expired, as it was (docs/import-export.md). */
  pastExpiryKept?: boolean | undefined;
}

/** What a write changes of a link: an absent field stays as it is (spec: PATCH /links/{id}). */
export interface LinkChange {
  title?: string | undefined;
  destination_url?: string | undefined;
  external_id?: string | undefined;
  /** null or '' removes them. */
  comments?: string | null | undefined;
  expiry: ExpiryChange;
  /** With tag_names: the tags it carries from now on. */
  tag_ids?: readonly string[] | undefined;
  tag_names?: readonly string[] | undefined;
  /** The smart fields (smart-link-fields.ts): an absent one stays as it is. */
  smart?: SmartChange | undefined;
  pastExpiryKept?: boolean | undefined;
}

/** The expiry a new link starts with. */
export function newExpiry(link: NewLink, now: number): ExpiryState {
  return applyExpiry(NO_EXPIRY, link.expiry, now, link.pastExpiryKept);
}

/** The link's fields after the change, its expiry checked by the rules of expiry.ts. */
export function changedFields(row: LinkRow, change: LinkChange, now: number) {
  const expiry = applyExpiry({ expires_at: row.expires_at, expiration_url: row.expiration_url }, change.expiry, now, change.pastExpiryKept);
  return {
    title: change.title ?? row.title,
    destination_url: change.destination_url ?? row.destination_url,
    external_id: change.external_id ?? row.external_id,
    comments: change.comments === undefined ? row.comments : change.comments || null,
    expires_at: expiry.expires_at,
    expiration_url: expiry.expiration_url,
    ...changedSmartFields(row, change.smart),
  };
}

/**
 * Whether the change leaves the tags the link carries: it names none, or (by name, ignoring case)
 * the ones it has. Tag ids are resolved first, so they always count as a change.
 */
export function keepsTags(tags: readonly TagSummary[], change: LinkChange): boolean {
  if (change.tag_ids !== undefined) return false;
  if (change.tag_names === undefined) return true;
  const wanted = new Set(change.tag_names.map((name) => name.toLowerCase()));
  const held = new Set(tags.map((tag) => tag.name.toLowerCase()));
  return wanted.size === held.size && [...wanted].every((name) => held.has(name));
}

/** Whether the change would leave the link exactly as it is (an import then writes nothing and says `unchanged`). */
export function changesNothing(link: TaggedLink, change: LinkChange, now: number): boolean {
  const next = changedFields(link, change, now);
  return (
    keepsTags(link.tags, change) &&
    next.title === link.title &&
    next.destination_url === link.destination_url &&
    next.external_id === link.external_id &&
    next.comments === link.comments &&
    next.expires_at?.getTime() === link.expires_at?.getTime() &&
    next.expiration_url === link.expiration_url &&
    keepsSmartFields(link, change.smart)
  );
}
