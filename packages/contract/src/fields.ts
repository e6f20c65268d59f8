import { z } from 'zod';
import { LIMITS, TAG_COLORS } from './limits.ts';
import { slugProblem } from './slug.ts';
import { CONTROL_CHARACTER, CONTROL_CHARACTER_EXCEPT_BREAKS, charCount, hiddenCharacterProblem, LONE_SURROGATE } from './text-rules.ts';
import { UTM_KEYS, type UtmKey } from './utm-keys.ts';

const wellFormed = (value: string) => !LONE_SURROGATE.test(value);
const notWellFormed = (what: string) => `${what} must be valid Unicode text (it holds half of a surrogate pair)`;

/** A string of at most `max` characters (code points). */
function text(max: number, what: string) {
  return z
    .string({ error: `${what} must be a string` })
    .refine((value) => charCount(value) <= max, `${what} must be at most ${max} characters`)
    .meta({ maxLength: max });
}

/**
 * One line of text a person names something with (a title, a tag name, an external id): trimmed,
 * 1 to `max` characters, no control characters or line breaks, valid Unicode; and, for what the
 * dashboard shows as a name (`shown`: titles and tag names), no character that hides or reorders
 * text (HIDDEN_CHARACTER, docs/api-decisions.md).
 */
export function trimmedText(
  what: string,
  max: number,
  example: string,
  { controlMessage = 'must not contain control characters or line breaks', shown = false } = {},
) {
  return z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`)
    .refine((value) => charCount(value) <= max, `${what} must be at most ${max} characters`)
    .refine((value) => !CONTROL_CHARACTER.test(value), `${what} ${controlMessage}`)
    .refine(wellFormed, notWellFormed(what))
    .superRefine((value, ctx) => {
      const problem = shown ? hiddenCharacterProblem(what, value) : undefined;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({ maxLength: max, example });
}

export function absoluteHttpUrl(what: string) {
  return (
    z
      .string({ error: `${what} must be a string` })
      .trim()
      .min(1, `${what} is required`)
      .max(LIMITS.urlChars, `${what} must be at most ${LIMITS.urlChars} characters`)
      // A raw control character is never part of a real URL (they travel percent-encoded), and NUL
      // could not even be stored.
      .refine((value) => !CONTROL_CHARACTER.test(value), `${what} must not contain control characters`)
      .refine(isHttpUrl, `${what} must be an absolute http:// or https:// URL`)
      .meta({ format: 'uri', example: 'https://example.com/launch' })
  );
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const titleField = trimmedText('title', LIMITS.titleChars, 'Spring launch', { shown: true });

export const destinationUrlField = absoluteHttpUrl('destination_url');
export const expirationUrlField = absoluteHttpUrl('expiration_url');
export const rootRedirectUrlField = absoluteHttpUrl('root_redirect_url');
export const notFoundUrlField = absoluteHttpUrl('not_found_url');

/** A link's branded domain, by name (docs/domains.md): one of the workspace's verified domains. */
export const linkDomainField = z
  .string({ error: 'domain must be a string' })
  .trim()
  .min(1, 'domain must not be empty')
  .max(LIMITS.domainNameChars, `domain must be at most ${LIMITS.domainNameChars} characters`)
  .meta({
    example: 'go.acme.example',
    description: "One of the workspace's verified domains; omitted: its default domain, else the server's.",
  });
/** Where a webhook is sent (docs/webhooks.md); the destination rules apply on top. */
export const webhookUrlField = absoluteHttpUrl('url');

export const slugField = z
  .string({ error: 'slug must be a string' })
  .superRefine((slug, ctx) => {
    const problem = slugProblem(slug);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ pattern: '^[A-Za-z0-9_-]{1,64}$', example: 'spring-launch' });

export const utmField = z
  .strictObject(
    Object.fromEntries(UTM_KEYS.map((key) => [key, text(LIMITS.utmValueChars, `utm.${key}`).optional()])) as Record<
      UtmKey,
      z.ZodOptional<ReturnType<typeof text>>
    >,
  )
  .meta({
    id: 'Utm',
    description: 'Merged into destination_url as utm_* query parameters, replacing any of the same name.',
    example: { source: 'newsletter', campaign: 'spring' },
  });

export const tagIdsField = z
  .array(z.string({ error: 'tag_ids must hold strings' }).max(100, 'tag_ids entries are tag ids'), {
    error: 'tag_ids must be an array of tag ids',
  })
  .max(LIMITS.tagsPerLink, `a link carries at most ${LIMITS.tagsPerLink} tags`)
  .meta({ example: ['tag_4hG7Qx2LpZ'] });

export const tagNameField = trimmedText('name', LIMITS.tagNameChars, 'Campaigns', { shown: true });

export const tagNamesField = z
  .array(tagNameField, { error: 'tag_names must be an array of tag names' })
  .max(LIMITS.tagsPerLink, `a link carries at most ${LIMITS.tagsPerLink} tags`)
  .meta({ example: ['Campaigns'] });

export const commentsField = z
  .string({ error: 'comments must be a string or null' })
  .trim()
  .refine((value) => charCount(value) <= LIMITS.commentsChars, `comments must be at most ${LIMITS.commentsChars} characters`)
  .refine(
    (value) => !CONTROL_CHARACTER_EXCEPT_BREAKS.test(value),
    'comments must not contain control characters other than line breaks and tabs',
  )
  .refine(wellFormed, notWellFormed('comments'))
  .nullable()
  .meta({ maxLength: LIMITS.commentsChars });

export const expiresAtField = z
  .number({ error: 'expires_at must be a number of Unix milliseconds or null' })
  .int('expires_at must be a whole number of Unix milliseconds')
  .nullable()
  .meta({ description: 'Unix milliseconds; in the future, at most 10 years ahead.', example: 1893456000000 });

export const externalIdField = trimmedText('external_id', LIMITS.externalIdChars, 'crm-4711', {
  controlMessage: 'must not contain control characters',
});

export const tagColorField = z.enum(TAG_COLORS, { error: `color must be one of ${TAG_COLORS.join(', ')}` });
