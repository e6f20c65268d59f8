import type { LinkInput } from '@shortlinks/client';
import { clipChars, LIMITS } from '@shortlinks/contract/rules';
import { createOf, type LinkDraft } from '@shortlinks/ui';

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

/**
 * The create body for the New link form: only what the person filled in is sent (the shared
 * draft's rules, UTM and expiry included), and an empty title is named after the destination.
 */
export function createBodyOf(draft: LinkDraft): LinkInput {
  const body = createOf(undefined, draft);
  return body.title === '' ? { ...body, title: titleFromDestination(body.destination_url) } : body;
}
