import type { CreateLinkBody, Link, Preview, RedirectRule, UpdateLinkBody } from '@shortlinks/contract';
import type { UrlChecks } from '../destinations/bulk-url-checks.ts';
import { checkedInOrder } from '../destinations/checked-in-order.ts';
import { hashPassword } from '../redirects/link-password.ts';

/**
 * A smart link's fields (issue #30, docs/redirects.md) as the API writes and reads them: the
 * password as its argon2id hash, the click limit, the redirect rules (their destinations checked
 * and utm merged in) and the preview, the last two as JSON text.
 */
export const SMART_LINK_FIELDS = ['password_hash', 'max_clicks', 'rules', 'preview'] as const;

/** The smart fields as stored; null when unset. */
export interface SmartFields {
  password_hash: string | null;
  max_clicks: number | null;
  rules: string | null;
  preview: string | null;
}

/** What a write changes of them: an absent field stays as it is. */
export type SmartChange = Partial<SmartFields>;

export const NO_SMART_FIELDS: SmartFields = { password_hash: null, max_clicks: null, rules: null, preview: null };

type SmartBody = Pick<CreateLinkBody, 'password' | 'max_clicks' | 'rules' | 'preview' | 'utm'> | UpdateLinkBody;

/**
 * The smart fields of a request, ready to store: the password hashed, every rule's destination
 * and the preview's image checked as destination_url is (policy, denylist, reputation) under
 * their own field's name, and the request's utm merged into each rule's destination. Waits on the
 * reputation service and argon2, so it runs before the transaction, as the URL checks do.
 */
export async function preparedSmartChange(body: SmartBody, urls: UrlChecks, otherChecks?: Promise<unknown>): Promise<SmartChange> {
  const change: SmartChange = {};
  if (body.max_clicks !== undefined) change.max_clicks = body.max_clicks;
  const [rules, preview] = await checkedInOrder<[string | null | undefined, string | null | undefined]>([
    body.rules === undefined ? Promise.resolve(undefined) : checkedRules(body.rules, body.utm, urls),
    body.preview === undefined ? Promise.resolve(undefined) : checkedPreview(body.preview, urls),
  ]);
  if (rules !== undefined) change.rules = rules;
  if (preview !== undefined) change.preview = preview;
  // Hashed last, once the body's other URLs passed too (`otherChecks`, asked at the same time):
  // a request refused for its URLs costs no argon2 hash.
  await otherChecks;
  if (body.password !== undefined) change.password_hash = body.password === null ? null : await hashPassword(body.password);
  return change;
}

async function checkedRules(rules: RedirectRule[] | null, utm: CreateLinkBody['utm'], urls: UrlChecks): Promise<string | null> {
  if (rules === null || rules.length === 0) return null;
  // Asked together (twenty rules wait one check's time, not twenty); the first refused rule is the one named.
  const destinations = await checkedInOrder(
    rules.map((rule, index) => urls.otherDestination(`rules[${index}].destination_url`, rule.destination_url, utm)),
  );
  const checked: RedirectRule[] = rules.map((rule, index) => ({
    if: rule.if,
    destination_url: destinations[index] ?? rule.destination_url,
  }));
  return JSON.stringify(checked);
}

async function checkedPreview(preview: Preview | null, urls: UrlChecks): Promise<string | null> {
  if (preview === null) return null;
  const stored: Preview = { ...preview };
  if (preview.image_url !== undefined) stored.image_url = await urls.otherDestination('preview.image_url', preview.image_url, undefined);
  return JSON.stringify(stored);
}

/** The stored fields after the change. */
export function changedSmartFields(row: SmartFields, change: SmartChange | undefined): SmartFields {
  return {
    password_hash: change?.password_hash === undefined ? row.password_hash : change.password_hash,
    max_clicks: change?.max_clicks === undefined ? row.max_clicks : change.max_clicks,
    rules: change?.rules === undefined ? row.rules : change.rules,
    preview: change?.preview === undefined ? row.preview : change.preview,
  };
}

/** Whether the change leaves them as they are (an import then says `unchanged`). */
export function keepsSmartFields(row: SmartFields, change: SmartChange | undefined): boolean {
  const next = changedSmartFields(row, change);
  return SMART_LINK_FIELDS.every((field) => next[field] === row[field]);
}

/** Adds the smart fields that are set to the link object (spec: present only when set). */
export function withSmartFields(link: Link, row: SmartFields): void {
  if (row.password_hash !== null) link.password_protected = true;
  if (row.max_clicks !== null) link.max_clicks = row.max_clicks;
  if (row.rules !== null) link.rules = JSON.parse(row.rules) as RedirectRule[];
  if (row.preview !== null) link.preview = JSON.parse(row.preview) as Preview;
}
