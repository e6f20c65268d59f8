import { ShortlinksError } from '@shortlinks/client';
import { DEFAULT_MESSAGES, type HostMessages } from '../host-messages.ts';

/** The inputs of the link form an error can be shown next to. */
export type LinkFormField =
  | 'title'
  | 'slug'
  | 'tags'
  | 'utm'
  | 'expires_at'
  | 'expiration_url'
  | 'comments'
  | 'destination_url'
  | 'password'
  | 'max_clicks'
  | 'rules'
  | 'preview'
  | 'domain';

/** Where an error is shown (a field, or the form as a whole) and what it says to a person. */
export interface FormError {
  field: LinkFormField | 'form';
  message: string;
}

const FIELD_OF_API_FIELD: Record<string, LinkFormField> = {
  title: 'title',
  slug: 'slug',
  tag_ids: 'tags',
  tag_names: 'tags',
  utm: 'utm',
  expires_at: 'expires_at',
  expiration_url: 'expiration_url',
  comments: 'comments',
  destination_url: 'destination_url',
  password: 'password',
  max_clicks: 'max_clicks',
  rules: 'rules',
  preview: 'preview',
  domain: 'domain',
};

const LABELS: [RegExp, string][] = [
  // A rule's own field (`rules[2].destination_url`): its place is said before the message.
  [/^rules\[\d+\]\.(?:if\.)?/, ''],
  [/^utm\.(\w+)/, 'UTM $1'],
  [/^destination_url\b/, 'The page address'],
  [/^expiration_url\b/, 'The fallback address'],
  [/^expires_at\b/, 'The expiry'],
  [/^tag_names\b|^tag_ids\b/, 'Tags'],
  [/^title\b/, 'The title'],
  [/^slug\b/, 'The slug'],
  [/^domain\b/, 'The domain'],
  [/^comments\b/, 'Comments'],
  [/^password\b/, 'The password'],
  [/^max_clicks\b/, 'The click limit'],
  [/^preview\.image_url\b/, 'The preview image'],
  [/^preview\.(\w+)\b/, 'The preview $1'],
];

/** A server message such as `title must not be empty` in the form's words: `The title must not be empty.` */
export function humanise(message: string): string {
  let text = message.trim();
  for (const [pattern, label] of LABELS) text = text.replace(pattern, label);
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * Any failure of a save, placed at its field with a sentence a person understands. `messages` are
 * the host's words for the errors mended elsewhere (the key, the connection, the plan's limits).
 */
export function formErrorOf(error: unknown, messages: HostMessages = DEFAULT_MESSAGES): FormError {
  if (!(error instanceof ShortlinksError)) return { field: 'form', message: 'Something went wrong. Please try again.' };
  switch (error.code) {
    case 'SLUG_TAKEN':
      return { field: 'slug', message: 'This slug is already taken. Choose another one.' };
    case 'SLUG_INVALID':
      // The server's sentence says what is wrong and what is allowed ("slug may contain only letters, …").
      return { field: 'slug', message: humanise(error.message) };
    case 'TAG_NOT_FOUND':
      return { field: 'tags', message: 'One of these tags no longer exists. Pick the tags again.' };
    case 'PLAN_LIMIT_REACHED':
      return { field: 'tags', message: messages.tagLimitReached };
    case 'LINK_LIMIT_REACHED':
      return { field: 'form', message: messages.linkLimitReached };
    case 'LINK_NOT_FOUND':
      return { field: 'form', message: 'This link no longer exists (it was deleted elsewhere).' };
    case 'EXTERNAL_ID_TAKEN':
      return { field: 'form', message: 'Another link already uses this external id.' };
    case 'UNAUTHORIZED':
      return { field: 'form', message: messages.keyRefused };
    case 'NETWORK_ERROR':
      return { field: 'form', message: messages.unreachable };
    case 'RATE_LIMITED':
      return { field: 'form', message: 'Too many requests just now. Wait a moment and try again.' };
    default: {
      // `rules[2].if.country` and `preview.image_url` are shown at their field: the rules, the preview.
      const field = error.field ? FIELD_OF_API_FIELD[error.field.split(/[.[]/)[0] ?? ''] : undefined;
      const where = error.field?.startsWith('rules[') ? `Rule ${Number(/\d+/.exec(error.field)?.[0]) + 1}: ` : '';
      return { field: field ?? 'form', message: `${where}${humanise(error.message)}` };
    }
  }
}
