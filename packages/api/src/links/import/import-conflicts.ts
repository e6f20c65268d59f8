import { AppError } from '../../errors.ts';
import { redirectKey } from '../../redirects/redirect-key.ts';
import type { TaggedLink } from '../link-changes.ts';
import type { LinkNames } from '../link-writes.ts';
import type { CheckedLink } from './import-checks.ts';

/** A row the import did not apply: its row number in the file and the API's error. */
export interface RowRefusal {
  row: number;
  code: string;
  message: string;
  field?: string | undefined;
}

/** Whether the row names its link by slug or external id (a row with neither is matched by destination). */
export function named(link: CheckedLink): boolean {
  return link.slug !== undefined || link.external_id !== undefined;
}

/** What a batch's rows may name: their slugs, external ids, and the destinations of rows with neither. */
export function namesOf(links: readonly CheckedLink[]): LinkNames {
  const names = { slugs: new Set<string>(), externalIds: new Set<string>(), destinations: new Set<string>() };
  for (const link of links) {
    if (link.slug !== undefined) names.slugs.add(link.slug);
    if (link.external_id !== undefined) names.externalIds.add(link.external_id);
    if (!named(link)) names.destinations.add(link.destination_url);
  }
  return names;
}

/**
 * The live links of the account that a batch's rows name, kept up to date as the batch creates and
 * updates links, so a later row of the file finds what an earlier one made: by slug, by external
 * id, and for a row with neither by its final destination (the oldest such link), as POST
 * /links/upsert matches, so that running such a row again finds the link it made.
 */
export class NamedLinks {
  readonly #bySlug = new Map<string, TaggedLink>();
  readonly #byExternalId = new Map<string, TaggedLink>();
  readonly #byDestination = new Map<string, TaggedLink>();

  /** `found`: the live links with the batch's names, oldest first. */
  constructor(found: readonly TaggedLink[], names: LinkNames) {
    for (const link of found) {
      // By slug on its domain: the same slug may live on several (docs/domains.md).
      if (names.slugs.has(link.slug)) this.#bySlug.set(redirectKey(link.domain_id, link.slug), link);
      if (link.external_id !== null && names.externalIds.has(link.external_id)) this.#byExternalId.set(link.external_id, link);
      if (names.destinations.has(link.destination_url) && !this.#byDestination.has(link.destination_url)) {
        this.#byDestination.set(link.destination_url, link);
      }
    }
  }

  /**
   * The live link of the account the row names, by slug or by external id (by its destination when
   * it has neither). When slug and external id name two different links the row can be neither:
   * its external id belongs to another link.
   */
  conflict(link: CheckedLink): TaggedLink | undefined {
    if (!named(link)) return this.#byDestination.get(link.destination_url);
    const atSlug = link.slug === undefined ? undefined : this.#bySlug.get(redirectKey(link.domainId ?? null, link.slug));
    const withExternalId = link.external_id === undefined ? undefined : this.#byExternalId.get(link.external_id);
    if (atSlug && withExternalId && atSlug.id !== withExternalId.id) {
      throw new AppError('EXTERNAL_ID_TAKEN', `external_id "${link.external_id}" belongs to another link`, 'external_id');
    }
    return atSlug ?? withExternalId;
  }

  created(link: TaggedLink): void {
    this.#bySlug.set(redirectKey(link.domain_id, link.slug), link);
    if (link.external_id !== null) this.#byExternalId.set(link.external_id, link);
    if (!this.#byDestination.has(link.destination_url)) this.#byDestination.set(link.destination_url, link);
  }

  updated(before: TaggedLink, after: TaggedLink): void {
    if (before.external_id !== null) this.#byExternalId.delete(before.external_id);
    if (after.external_id !== null) this.#byExternalId.set(after.external_id, after);
    this.#bySlug.set(redirectKey(after.domain_id, after.slug), after);
    if (this.#byDestination.get(before.destination_url)?.id === before.id) this.#byDestination.delete(before.destination_url);
    if (!this.#byDestination.has(after.destination_url)) this.#byDestination.set(after.destination_url, after);
  }
}

type ConflictCode = 'SLUG_TAKEN' | 'EXTERNAL_ID_TAKEN' | 'LINK_EXISTS';

/** Which of the row's names the existing link holds: its slug, its external id, or (a row with neither) its destination. */
export function conflictCode(existing: TaggedLink, link: CheckedLink): ConflictCode {
  if (!named(link)) return 'LINK_EXISTS';
  return existing.slug === link.slug ? 'SLUG_TAKEN' : 'EXTERNAL_ID_TAKEN';
}

/** A conflict with a link of the account; `earlierRow` when a row of this run made or changed that link. */
export function conflictRefusal(row: number, code: ConflictCode, link: CheckedLink, earlierRow?: number): RowRefusal {
  const holder = earlierRow === undefined ? 'a live link of this account' : `the link imported from row ${earlierRow}, which differs`;
  switch (code) {
    case 'SLUG_TAKEN':
      return { row, code, message: `The slug "${link.slug}" already names ${holder}`, field: 'slug' };
    case 'EXTERNAL_ID_TAKEN':
      return { row, code, message: `external_id "${link.external_id}" already names ${holder}`, field: 'external_id' };
    case 'LINK_EXISTS':
      return {
        row,
        code,
        message: `A live link of this account already goes to ${link.destination_url} (a row without slug or external_id is matched by its destination)`,
        field: 'destination_url',
      };
  }
}
