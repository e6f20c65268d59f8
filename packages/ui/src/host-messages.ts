/**
 * The sentences of the errors that send a person somewhere to mend them. Where that is belongs to
 * the app: the extension's options and its Manage page, the web dashboard's sign-in and Tags page.
 * An app gives its own through `ShortlinksProvider`'s `messages`; these defaults name no place, so
 * they read right in any app (and in the extension's service worker, which has no provider).
 */
export interface HostMessages {
  /** The server refused the API key (401). */
  keyRefused: string;
  /** The server could not be reached at all. */
  unreachable: string;
  /** The plan allows no more tags: a link's new tag names could not be created. */
  tagLimitReached: string;
  /** The plan allows no more links. */
  linkLimitReached: string;
}

export const DEFAULT_MESSAGES: HostMessages = {
  keyRefused: 'The server refused the API key. Check the key, or ask for a new one.',
  unreachable: 'The server could not be reached. Check your connection and try again.',
  tagLimitReached: 'Your plan allows no more tags. Pick existing tags, or delete tags you no longer use.',
  linkLimitReached: 'Your plan’s link limit is reached. Delete links you no longer need.',
};
