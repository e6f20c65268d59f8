import type { Link, LinkInput, LinkUpdate } from '@shortlinks/client';
import { slugProblem, UTM_KEYS, type UtmKey } from '@shortlinks/contract/rules';
import { type FormError, humanise, type LinkFormField } from './field-errors.ts';
import { EMPTY_SMART, type SmartDraft, smartCreateOf, smartDraftOf, smartProblem, smartUpdateOf } from './smart-draft.ts';
import { completeAddress } from './web-address.ts';

export { UTM_KEYS, type UtmKey } from '@shortlinks/contract/rules';

/** What the link form edits, as the inputs hold it (strings; '' means empty). */
export interface LinkDraft {
  /** Where the link leads, without its `utm_*` parameters (those are in `utm`). */
  destination: string;
  title: string;
  slug: string;
  /** Tag names, existing or new; the server matches them ignoring case and creates the rest. */
  tags: string[];
  utm: Record<UtmKey, string>;
  /** A `datetime-local` value in the browser's time zone, or ''. */
  expiresAt: string;
  expirationUrl: string;
  comments: string;
  /** Password, click limit, rules and preview (smart-draft.ts). */
  smart: SmartDraft;
}

/** The form's starting values for a link: its UTM parameters are read back out of its destination. */
export function draftOf(link: Link): LinkDraft {
  const utm = Object.fromEntries(UTM_KEYS.map((key) => [key, ''])) as Record<UtmKey, string>;
  try {
    const params = new URL(link.destination_url).searchParams;
    for (const key of UTM_KEYS) utm[key] = params.get(`utm_${key}`) ?? '';
  } catch {
    // A destination the URL parser refuses keeps empty UTM fields.
  }
  return {
    destination: withoutUtm(link.destination_url),
    title: link.title,
    slug: link.slug,
    tags: link.tags.map((tag) => tag.name),
    utm,
    expiresAt: link.expires_at === undefined ? '' : toDateTimeLocal(link.expires_at),
    expirationUrl: link.expiration_url ?? '',
    comments: link.comments ?? '',
    smart: smartDraftOf(link),
  };
}

/** A blank draft: the New link form's starting values. */
export const EMPTY_DRAFT: LinkDraft = {
  destination: '',
  title: '',
  slug: '',
  tags: [],
  utm: { source: '', medium: '', campaign: '', content: '', term: '' },
  expiresAt: '',
  expirationUrl: '',
  comments: '',
  smart: EMPTY_SMART,
};

/**
 * The fields of the form an error is shown at, for each part of the draft: changing a part clears
 * an error shown there. The expiry also clears the fallback's ("needs an expiry"), and the
 * destination the UTM's (the merged address too long).
 */
export const ERROR_FIELDS_OF: Record<keyof LinkDraft, LinkFormField[]> = {
  destination: ['destination_url', 'utm'],
  title: ['title'],
  slug: ['slug'],
  tags: ['tags'],
  utm: ['utm'],
  expiresAt: ['expires_at', 'expiration_url'],
  expirationUrl: ['expiration_url'],
  comments: ['comments'],
  smart: ['password', 'max_clicks', 'rules', 'preview'],
};

/** The error left after a change to the draft: gone when the change touched its field. */
export function errorAfterChange(error: FormError | undefined, patch: Partial<LinkDraft>): FormError | undefined {
  if (!error || error.field === 'form') return error;
  const touched = (Object.keys(patch) as (keyof LinkDraft)[]).flatMap((key) => ERROR_FIELDS_OF[key]);
  return touched.includes(error.field) ? undefined : error;
}

/** The draft's UTM values that are set, trimmed, as the API takes them. */
export function utmOf(draft: Pick<LinkDraft, 'utm'>): Partial<Record<UtmKey, string>> {
  return Object.fromEntries(UTM_KEYS.filter((key) => draft.utm[key].trim() !== '').map((key) => [key, draft.utm[key].trim()]));
}

/**
 * The PATCH for what changed between the link and the draft (only changed fields are sent, so an
 * untouched field can never fail). A new destination, or new UTM values, send the destination
 * without its `utm_*` parameters plus the UTM values: the API merges `utm` only into a
 * destination sent with it (spec: PATCH /links/{id}), and an empty value cannot remove a parameter.
 */
export function updateOf(link: Link, draft: LinkDraft): LinkUpdate {
  const before = draftOf(link);
  const update: LinkUpdate = { id: link.id };
  if (draft.title.trim() !== before.title) update.title = draft.title;
  if (!sameNames(draft.tags, before.tags)) update.tag_names = draft.tags;
  const destination = completeAddress(draft.destination);
  if (destination !== before.destination || UTM_KEYS.some((key) => draft.utm[key].trim() !== before.utm[key])) {
    update.destination_url = destination;
    const utm = utmOf(draft);
    if (Object.keys(utm).length > 0) update.utm = utm;
  }
  if (draft.comments.trim() !== before.comments.trim()) update.comments = draft.comments.trim() === '' ? null : draft.comments;
  if (draft.expiresAt !== before.expiresAt) update.expires_at = draft.expiresAt === '' ? null : fromDateTimeLocal(draft.expiresAt);
  // Removing the expiry removes the fallback with it (spec: PATCH expires_at null).
  if (draft.expiresAt !== '' && completeAddress(draft.expirationUrl) !== before.expirationUrl) {
    update.expiration_url = draft.expirationUrl.trim() === '' ? null : completeAddress(draft.expirationUrl);
  }
  Object.assign(update, smartUpdateOf(link, draft.smart));
  return update;
}

/** A problem the form can see before sending anything, or undefined. */
export function draftProblem(draft: LinkDraft): FormError | undefined {
  if (draft.destination.trim() === '') return { field: 'destination_url', message: 'Enter the address the short link leads to.' };
  if (draft.expiresAt === '' && draft.expirationUrl.trim() !== '') {
    return { field: 'expiration_url', message: 'A fallback address needs an expiry: set the expiry date first.' };
  }
  if (draft.expiresAt !== '' && Number.isNaN(fromDateTimeLocal(draft.expiresAt))) {
    return { field: 'expires_at', message: 'The expiry is not a valid date and time.' };
  }
  return smartProblem(draft.smart);
}

/** The new slug of a draft, when it differs from the link's (an empty box keeps the slug). */
export function newSlugOf(link: Link, draft: LinkDraft): string | undefined {
  const slug = draft.slug.trim();
  return slug !== '' && slug !== link.slug ? slug : undefined;
}

/** What is wrong with a new slug, by the server's own rule, before anything is asked or sent. */
export function slugChangeProblem(link: Link, draft: LinkDraft): FormError | undefined {
  const slug = newSlugOf(link, draft);
  const problem = slug === undefined ? undefined : slugProblem(slug);
  return problem ? { field: 'slug', message: humanise(problem) } : undefined;
}

/**
 * The body that creates the draft as a link: a new one (New link; `link` undefined), or a link
 * moved to a new slug, created anew (a slug never changes after creation) with everything else the
 * draft holds. Only what is filled in is sent; a moved link's expiry left as it was keeps its exact
 * instant (the form shows it to the minute).
 */
export function createOf(link: Link | undefined, draft: LinkDraft): LinkInput {
  const utm = utmOf(draft);
  const keptExpiry = link?.expires_at !== undefined && draft.expiresAt === toDateTimeLocal(link.expires_at) ? link.expires_at : undefined;
  return {
    title: draft.title.trim(),
    destination_url: completeAddress(draft.destination),
    ...(draft.slug.trim() !== '' ? { slug: draft.slug.trim() } : {}),
    ...(Object.keys(utm).length > 0 ? { utm } : {}),
    ...(draft.tags.length > 0 ? { tag_names: draft.tags } : {}),
    ...(draft.comments.trim() !== '' ? { comments: draft.comments.trim() } : {}),
    ...(draft.expiresAt !== '' ? { expires_at: keptExpiry ?? fromDateTimeLocal(draft.expiresAt) } : {}),
    ...(draft.expiresAt !== '' && draft.expirationUrl.trim() !== '' ? { expiration_url: completeAddress(draft.expirationUrl) } : {}),
    ...smartCreateOf(draft.smart),
  };
}

/** True when saving the draft would change nothing. */
export function isUnchanged(update: LinkUpdate): boolean {
  return Object.keys(update).length === 1;
}

export function withoutUtm(url: string): string {
  try {
    const parsed = new URL(url);
    const hadUtm = UTM_KEYS.some((key) => parsed.searchParams.has(`utm_${key}`));
    if (!hadUtm) return url;
    for (const key of UTM_KEYS) parsed.searchParams.delete(`utm_${key}`);
    return parsed.href;
  } catch {
    return url;
  }
}

function sameNames(a: string[], b: string[]): boolean {
  const normal = (names: string[]) => [...new Set(names.map((name) => name.trim().toLowerCase()))].sort().join('\n');
  return normal(a) === normal(b);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Unix ms as a `datetime-local` input value in the browser's time zone (minute precision). */
export function toDateTimeLocal(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as Unix ms. */
export function fromDateTimeLocal(value: string): number {
  return new Date(value).getTime();
}
