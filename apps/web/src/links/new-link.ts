import type { LinkInput } from '@shortlinks/client';
import { clipChars, LIMITS } from '@shortlinks/contract/rules';
import type { FormError } from '@shortlinks/ui/errors';

/** The "New link" form as its inputs hold it ('' is empty). */
export interface NewLinkDraft {
  destination: string;
  title: string;
  slug: string;
  tags: string[];
  comments: string;
}

export const EMPTY_DRAFT: NewLinkDraft = { destination: '', title: '', slug: '', tags: [], comments: '' };

/**
 * A title for a link whose creator left it empty: the destination's host and path, as a person
 * would read it (`example.com/launch`), so the list never shows a blank line.
 */
export function titleFromDestination(destination: string): string {
  try {
    const url = new URL(destination);
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
    return clipChars(`${url.host}${path}`, LIMITS.titleChars);
  } catch {
    return clipChars(destination.trim(), LIMITS.titleChars);
  }
}

/** A problem the form can see before asking the server, placed at its field; or undefined. */
export function newLinkProblem(draft: NewLinkDraft): FormError | undefined {
  const destination = draft.destination.trim();
  if (destination === '') return { field: 'destination_url', message: 'Enter the address the short link leads to.' };
  if (!/^https?:\/\//i.test(destination)) {
    return { field: 'destination_url', message: 'The address must start with https:// or http://.' };
  }
  return undefined;
}

/** The create body for the draft: only what the person filled in is sent. */
export function createBodyOf(draft: NewLinkDraft): LinkInput {
  const destination = draft.destination.trim();
  const title = draft.title.trim() === '' ? titleFromDestination(destination) : draft.title.trim();
  return {
    title,
    destination_url: destination,
    ...(draft.slug.trim() !== '' ? { slug: draft.slug.trim() } : {}),
    ...(draft.tags.length > 0 ? { tag_names: draft.tags } : {}),
    ...(draft.comments.trim() !== '' ? { comments: draft.comments.trim() } : {}),
  };
}
