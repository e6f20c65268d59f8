import { z } from 'zod';
import { LIMITS, TAG_COLORS } from './limits.ts';
import { slugProblem } from './slug.ts';
import { CONTROL_CHARACTER, CONTROL_CHARACTER_EXCEPT_BREAKS, charCount } from './text-rules.ts';

/** A string of at most `max` characters (code points). */
function text(max: number, what: string) {
  return z
    .string({ error: `${what} must be a string` })
    .refine((value) => charCount(value) <= max, `${what} must be at most ${max} characters`)
    .meta({ maxLength: max });
}

function absoluteHttpUrl(what: string) {
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

export const titleField = z
  .string({ error: 'title is required and must be a string' })
  .trim()
  .min(1, 'title must not be empty')
  .refine((value) => charCount(value) <= LIMITS.titleChars, `title must be at most ${LIMITS.titleChars} characters`)
  .refine((value) => !CONTROL_CHARACTER.test(value), 'title must not contain control characters or line breaks')
  .meta({ maxLength: LIMITS.titleChars, example: 'Spring launch' });

export const destinationUrlField = absoluteHttpUrl('destination_url');
export const expirationUrlField = absoluteHttpUrl('expiration_url');

export const slugField = z
  .string({ error: 'slug must be a string' })
  .superRefine((slug, ctx) => {
    const problem = slugProblem(slug);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ pattern: '^[A-Za-z0-9_-]{1,64}$', example: 'spring-launch' });

const utmValue = (key: string) => text(LIMITS.utmValueChars, `utm.${key}`).optional();
export const utmField = z
  .strictObject({
    source: utmValue('source'),
    medium: utmValue('medium'),
    campaign: utmValue('campaign'),
    content: utmValue('content'),
    term: utmValue('term'),
  })
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

export const tagNameField = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .refine((value) => charCount(value) <= LIMITS.tagNameChars, `name must be at most ${LIMITS.tagNameChars} characters`)
  .refine((value) => !CONTROL_CHARACTER.test(value), 'name must not contain control characters or line breaks')
  .meta({ maxLength: LIMITS.tagNameChars, example: 'Campaigns' });

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
  .nullable()
  .meta({ maxLength: LIMITS.commentsChars });

export const expiresAtField = z
  .number({ error: 'expires_at must be a number of Unix milliseconds or null' })
  .int('expires_at must be a whole number of Unix milliseconds')
  .nullable()
  .meta({ description: 'Unix milliseconds; in the future, at most 10 years ahead.', example: 1893456000000 });

export const externalIdField = z
  .string({ error: 'external_id must be a string' })
  .trim()
  .min(1, 'external_id must not be empty')
  .refine((value) => charCount(value) <= LIMITS.externalIdChars, `external_id must be at most ${LIMITS.externalIdChars} characters`)
  .refine((value) => !CONTROL_CHARACTER.test(value), 'external_id must not contain control characters')
  .meta({ maxLength: LIMITS.externalIdChars, example: 'crm-4711' });

export const tagColorField = z.enum(TAG_COLORS, { error: `color must be one of ${TAG_COLORS.join(', ')}` });
