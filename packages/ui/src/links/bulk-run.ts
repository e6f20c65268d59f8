import type { Link, LinkListQuery, ShortlinksClient } from '@shortlinks/client';
import { LIMITS } from '@shortlinks/contract/rules';
import type { HostMessages } from '../host-messages.ts';
import { type BulkAction, type BulkBatch, planBulk } from './bulk-plan.ts';
import { formErrorOf } from './field-errors.ts';

/** A link the bulk action could not be done to, and why, in the words its single call would use. */
export interface BulkFailure {
  link: Pick<Link, 'id' | 'title' | 'short_url'>;
  message: string;
}

export interface BulkOutcome {
  /** Links changed or deleted. */
  done: number;
  /** Links the action left alone (they already had the tag, or did not have it). */
  unchanged: number;
  failures: BulkFailure[];
}

/** How far a bulk action is: `done` of `total` links sent (or, while gathering, listed). */
export interface BulkProgress {
  stage: 'gathering' | 'sending';
  done: number;
  total: number;
}

/**
 * Every link the list's filter matches, a page of 100 at a time, all gathered before anything is
 * changed: deleting while paging would move links from later pages onto pages already read.
 */
export async function matchingLinks(
  client: ShortlinksClient,
  query: Omit<LinkListQuery, 'page' | 'per_page'>,
  onProgress: (progress: BulkProgress) => void,
): Promise<Link[]> {
  const links: Link[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.links.list({ ...query, page, per_page: LIMITS.perPageMax });
    links.push(...answer.links);
    onProgress({ stage: 'gathering', done: links.length, total: answer.total });
    if (answer.links.length < LIMITS.perPageMax || links.length >= answer.total) return links;
  }
}

/**
 * Does `action` to `links` through the bulk calls, one call at a time, reporting progress after each.
 * Every item answers for itself (all, some — 207 — or none done); a call refused as a whole (the
 * network, the key) fails its items with that reason and the next call is still tried.
 */
export async function runBulk(
  client: ShortlinksClient,
  action: BulkAction,
  links: readonly Link[],
  messages: HostMessages,
  onProgress: (progress: BulkProgress) => void,
): Promise<BulkOutcome> {
  const byId = new Map(links.map((link) => [link.id, link]));
  const { batches, unchanged } = planBulk(action, links);
  const outcome: BulkOutcome = { done: 0, unchanged: unchanged.length, failures: [] };
  const total = links.length;
  let sent = unchanged.length;
  onProgress({ stage: 'sending', done: sent, total });
  for (const batch of batches) {
    try {
      const results = await send(client, batch);
      for (const item of results) {
        if (item.ok) outcome.done += 1;
        else outcome.failures.push({ link: summaryOf(byId, item.id), message: item.error.message });
      }
    } catch (caught) {
      const message = formErrorOf(caught, messages).message;
      for (const id of batch.ids) outcome.failures.push({ link: summaryOf(byId, id), message });
    }
    sent += batch.ids.length;
    onProgress({ stage: 'sending', done: sent, total });
  }
  return outcome;
}

async function send(client: ShortlinksClient, batch: BulkBatch) {
  if (batch.kind === 'delete') return (await client.links.bulkDelete({ ids: batch.ids })).results;
  return (await client.links.bulkUpdate({ ids: batch.ids, changes: { tag_ids: batch.tagIds } })).results;
}

const summaryOf = (byId: Map<string, Link>, id: string): BulkFailure['link'] => byId.get(id) ?? { id, title: id, short_url: '' };
