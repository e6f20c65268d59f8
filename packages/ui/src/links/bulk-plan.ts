import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { LIMITS } from '@shortlinks/contract/rules';

/** What the list's bulk actions do to the links chosen. */
export type BulkAction = { kind: 'add-tag'; tag: TagSummary } | { kind: 'remove-tag'; tag: TagSummary } | { kind: 'delete' };

/** One bulk call: DELETE /links/bulk for `ids`, or PATCH /links/bulk giving each of them `tagIds`. */
export type BulkBatch = { kind: 'delete'; ids: string[] } | { kind: 'set-tags'; ids: string[]; tagIds: string[] };

export interface BulkPlan {
  batches: BulkBatch[];
  /** Links the action leaves as they are: they already carry the tag, or do not carry it. */
  unchanged: Link[];
}

/**
 * The bulk calls that do `action` to `links`, each at most LIMITS.bulkItems ids.
 *
 * The API has no "add one tag": PATCH /links/bulk applies one change to every id, and a link's
 * `tag_ids` replaces its whole set (spec, "Tags on links"). So links are grouped by the tag set they
 * should end with, and each group is one call (or several of 100). The sets are those the links had
 * when they were listed: a tag given to one of them elsewhere in the meantime is replaced.
 */
export function planBulk(action: BulkAction, links: readonly Link[]): BulkPlan {
  if (action.kind === 'delete')
    return { batches: inBatches(links.map((link) => link.id)).map((ids) => ({ kind: 'delete', ids })), unchanged: [] };
  const groups = new Map<string, { tagIds: string[]; ids: string[] }>();
  const unchanged: Link[] = [];
  for (const link of links) {
    const carries = link.tags.some((tag) => tag.id === action.tag.id);
    if (carries === (action.kind === 'add-tag')) {
      unchanged.push(link);
      continue;
    }
    const kept = link.tags.map((tag) => tag.id).filter((id) => id !== action.tag.id);
    const tagIds = (action.kind === 'add-tag' ? [...kept, action.tag.id] : kept).sort();
    const key = tagIds.join(',');
    const group = groups.get(key) ?? { tagIds, ids: [] };
    group.ids.push(link.id);
    groups.set(key, group);
  }
  const batches = [...groups.values()].flatMap(({ tagIds, ids }) =>
    inBatches(ids).map((part): BulkBatch => ({ kind: 'set-tags', ids: part, tagIds })),
  );
  return { batches, unchanged };
}

/** `ids` in runs of at most one bulk call's worth. */
export function inBatches(ids: readonly string[], size: number = LIMITS.bulkItems): string[][] {
  const runs: string[][] = [];
  for (let at = 0; at < ids.length; at += size) runs.push(ids.slice(at, at + size));
  return runs;
}
