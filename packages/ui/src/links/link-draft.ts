import type { Link, LinkInput, LinkUpdate } from '@shortlinks/client';
import { slugProblem, UTM_KEYS, type UtmKey } from '@shortlinks/contract/rules';
import { type FormError, humanise } from './field-errors.ts';

export { UTM_KEYS, type UtmKey } from '@shortlinks/contract/rules';

/** What the link form edits, as the inputs hold it (strings; '' means empty). */
export interface LinkDraft {
  title: string;
  slug: string;
  /** Tag names, existing or new; the server matches them ignoring case and creates the rest. */
  tags: string[];
  utm: Record<UtmKey, string>;
  /** A `datetime-local` value in the browser's time zone, or ''. */
  expiresAt: string;
  expirationUrl: string;
  comments: string;
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
    title: link.title,
    slug: link.slug,
    tags: link.tags.map((tag) => tag.name),
    utm,
    expiresAt: link.expires_at === undefined ? '' : toDateTimeLocal(link.expires_at),
    expirationUrl: link.expiration_url ?? '',
    comments: link.comments ?? '',
  };
}

/**
 * The PATCH for what changed between the link and the draft (only changed fields are sent, so an
 * untouched field can never fail). UTM changes re-send the destination without its `utm_*`
 * parameters plus the new values, because an empty utm value cannot remove a parameter.
 */
export function updateOf(link: Link, draft: LinkDraft): LinkUpdate {
  const before = draftOf(link);
  const update: LinkUpdate = { id: link.id };
  if (draft.title.trim() !== before.title) update.title = draft.title;
  if (!sameNames(draft.tags, before.tags)) update.tag_names = draft.tags;
  if (UTM_KEYS.some((key) => draft.utm[key].trim() !== before.utm[key])) {
    update.destination_url = withoutUtm(link.destination_url);
    const utm = Object.fromEntries(UTM_KEYS.filter((key) => draft.utm[key].trim() !== '').map((key) => [key, draft.utm[key].trim()]));
    if (Object.keys(utm).length > 0) update.utm = utm;
  }
  if (draft.comments.trim() !== before.comments.trim()) update.comments = draft.comments.trim() === '' ? null : draft.comments;
  if (draft.expiresAt !== before.expiresAt) update.expires_at = draft.expiresAt === '' ? null : fromDateTimeLocal(draft.expiresAt);
  // Removing the expiry removes the fallback with it (spec: PATCH expires_at null).
  if (draft.expiresAt !== '' && draft.expirationUrl.trim() !== before.expirationUrl) {
    update.expiration_url = draft.expirationUrl.trim() === '' ? null : draft.expirationUrl.trim();
  }
  return update;
}

/** A problem the form can see before sending anything, or undefined. */
export function draftProblem(draft: LinkDraft): FormError | undefined {
  if (draft.expiresAt === '' && draft.expirationUrl.trim() !== '') {
    return { field: 'expiration_url', message: 'A fallback address needs an expiry: set the expiry date first.' };
  }
  if (draft.expiresAt !== '' && Number.isNaN(fromDateTimeLocal(draft.expiresAt))) {
    return { field: 'expires_at', message: 'The expiry is not a valid date and time.' };
  }
  return undefined;
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
 * The body that creates the draft as a new link to the link's destination: a link moved to a new
 * slug is created anew (a slug never changes after creation), with everything else it had. An
 * expiry left as it was keeps its exact instant (the form shows it to the minute).
 */
export function createOf(link: Link, draft: LinkDraft): LinkInput {
  const utm = Object.fromEntries(UTM_KEYS.filter((key) => draft.utm[key].trim() !== '').map((key) => [key, draft.utm[key].trim()]));
  const keptExpiry = link.expires_at !== undefined && draft.expiresAt === toDateTimeLocal(link.expires_at);
  return {
    title: draft.title,
    destination_url: withoutUtm(link.destination_url),
    slug: draft.slug.trim(),
    ...(Object.keys(utm).length > 0 ? { utm } : {}),
    ...(draft.tags.length > 0 ? { tag_names: draft.tags } : {}),
    ...(draft.comments.trim() !== '' ? { comments: draft.comments } : {}),
    ...(draft.expiresAt !== '' ? { expires_at: keptExpiry ? link.expires_at : fromDateTimeLocal(draft.expiresAt) } : {}),
    ...(draft.expiresAt !== '' && draft.expirationUrl.trim() !== '' ? { expiration_url: draft.expirationUrl.trim() } : {}),
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
