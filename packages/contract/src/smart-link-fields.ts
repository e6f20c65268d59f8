import { z } from 'zod';
import { COUNTRY_CODES } from './country-codes.ts';
import { absoluteHttpUrl, trimmedText } from './fields.ts';
import { LIMITS } from './limits.ts';
import { charCount } from './text-rules.ts';

/**
 * The fields of a smart link (issue #30, docs/redirects.md): a password, a click limit, redirect
 * rules and a social preview. Each follows the spec's convention for optional fields: absent from
 * the link object while unset, and `null` in a write removes it.
 */

/** Write-only: the link shows `password_protected: true`; stored as an argon2id hash, never as sent. */
export const passwordField = z
  .string({ error: 'password must be a string or null' })
  .refine(
    (value) => charCount(value) >= LIMITS.passwordMinChars && charCount(value) <= LIMITS.passwordMaxChars,
    `password must be ${LIMITS.passwordMinChars} to ${LIMITS.passwordMaxChars} characters`,
  )
  .nullable()
  .meta({
    description: `${LIMITS.passwordMinChars} to ${LIMITS.passwordMaxChars} characters; write-only (the link shows \`password_protected\`). null removes it.`,
    writeOnly: true,
  });

export const maxClicksField = z
  .number({ error: 'max_clicks must be a whole number or null' })
  .int('max_clicks must be a whole number')
  .min(1, `max_clicks must be from 1 to ${LIMITS.maxClicksMax}`)
  .max(LIMITS.maxClicksMax, `max_clicks must be from 1 to ${LIMITS.maxClicksMax}`)
  .nullable()
  .meta({ description: 'Visits redirected before the link behaves as expired; null removes the limit.', example: 100 });

export const RULE_DEVICES = ['desktop', 'mobile', 'tablet'] as const;

/** A name a visitor's User-Agent is described by (`Windows`, `Chrome`), compared ignoring case. */
const agentName = (what: string) => trimmedText(what, LIMITS.ruleTextChars, what === 'os' ? 'iOS' : 'Chrome');

/** A language range of Accept-Language (`fr`, `pt-BR`), without `*`. */
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

const unixMs = (what: string) =>
  z
    .number({ error: `${what} must be a number of Unix milliseconds` })
    .int(`${what} must be a whole number of Unix milliseconds`)
    .min(0, `${what} must be a number of Unix milliseconds`);

/** The conditions of one rule: all that are given must hold. */
export const RuleConditionsSchema = z
  .strictObject({
    device: z.enum(RULE_DEVICES, { error: `device must be one of ${RULE_DEVICES.join(', ')}` }).optional(),
    os: agentName('os').optional(),
    browser: agentName('browser').optional(),
    country: z
      .string({ error: 'country must be an ISO 3166-1 alpha-2 code' })
      .overwrite((code) => code.toUpperCase())
      .refine((code) => COUNTRY_CODES.has(code), 'country must be an ISO 3166-1 alpha-2 code, such as DE')
      .optional(),
    language: z
      .string({ error: 'language must be a language tag' })
      .refine((tag) => tag.length <= 35 && LANGUAGE_TAG.test(tag), 'language must be a language tag, such as fr or pt-BR')
      .optional(),
    query: z
      .record(
        z
          .string()
          .min(1, 'query parameter names must not be empty')
          .max(LIMITS.ruleQueryChars, `query parameter names must be at most ${LIMITS.ruleQueryChars} characters`),
        z
          .string({ error: 'query values must be strings' })
          .max(LIMITS.ruleQueryChars, `query values must be at most ${LIMITS.ruleQueryChars} characters`),
      )
      .refine((query) => Object.keys(query).length >= 1, 'query must name at least one parameter')
      .refine((query) => Object.keys(query).length <= LIMITS.ruleQueryParams, `query may name at most ${LIMITS.ruleQueryParams} parameters`)
      .optional(),
    after: unixMs('after').optional(),
    before: unixMs('before').optional(),
  })
  .refine((conditions) => Object.keys(conditions).length > 0, 'a rule needs at least one condition')
  .refine((conditions) => conditions.after === undefined || conditions.before === undefined || conditions.after < conditions.before, {
    message: 'after must be before before',
    path: ['after'],
  })
  .meta({
    id: 'RuleConditions',
    description:
      'All given must hold: device (desktop, mobile, tablet), os and browser (names as the statistics show them, ignoring case), ' +
      'country (ISO 3166-1 alpha-2), language (matched against Accept-Language, ignoring q=0), query ({param: value}), ' +
      'after and before (Unix ms).',
    example: { device: 'mobile', country: 'DE' },
  });

export const RedirectRuleSchema = z
  .strictObject({ if: RuleConditionsSchema, destination_url: absoluteHttpUrl('destination_url') })
  .meta({ id: 'RedirectRule', example: { if: { device: 'mobile', os: 'iOS' }, destination_url: 'https://apps.apple.com/app/id1' } });

export const rulesField = z
  .array(RedirectRuleSchema, { error: 'rules must be an array of rules or null' })
  .max(LIMITS.rulesPerLink, `a link has at most ${LIMITS.rulesPerLink} rules`)
  .nullable()
  .meta({
    description: `Up to ${LIMITS.rulesPerLink} rules, checked in order; the first whose conditions all hold gives the destination. null or [] removes them.`,
  });

export const PreviewSchema = z
  .strictObject({
    title: trimmedText('preview.title', LIMITS.previewTitleChars, 'Spring launch').optional(),
    description: trimmedText('preview.description', LIMITS.previewDescriptionChars, 'Everything new this spring').optional(),
    image_url: absoluteHttpUrl('preview.image_url').optional(),
  })
  .refine((preview) => Object.keys(preview).length > 0, 'preview needs a title, a description or an image_url')
  .meta({
    id: 'Preview',
    description: 'What link-preview bots (Slack, X, Facebook, LinkedIn, Discord, …) show: Open Graph and Twitter card tags.',
    example: { title: 'Spring launch', description: 'Everything new this spring', image_url: 'https://example.com/spring.png' },
  });

export const previewField = PreviewSchema.nullable();

export type RuleConditions = z.infer<typeof RuleConditionsSchema>;
export type RedirectRule = z.infer<typeof RedirectRuleSchema>;
export type Preview = z.infer<typeof PreviewSchema>;
