import { z } from 'zod';
import { notFoundUrlField, rootRedirectUrlField } from './fields.ts';
import { LIMITS } from './limits.ts';

/**
 * Where a domain stands (docs/domains.md): `pending` until its TXT record is found, `verified`
 * and serving, `record_missing` (verified and still serving, but its record was not found at the
 * last check), `stopped` (its record was gone for 7 days: not serving, the name free for others).
 */
export const DOMAIN_STATUSES = ['pending', 'verified', 'record_missing', 'stopped'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const DomainVerificationSchema = z
  .object({
    type: z.literal('TXT'),
    name: z.string().meta({ description: 'The record to create: `_shortlinks.` followed by the domain.' }),
    value: z.string().meta({ description: 'The TXT value the record must hold.' }),
    error: z.string().optional().meta({ description: 'Why the last look-up did not verify the domain: what was found instead.' }),
  })
  .meta({ id: 'DomainVerification' });

export const DomainSchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `dom_`.' }),
    name: z.string().meta({ description: 'Lower case; an internationalised name in its ASCII (punycode) form.' }),
    verified: z.boolean(),
    status: z.enum(DOMAIN_STATUSES),
    status_reason: z.string().nullable().meta({ description: 'Why the domain is not serving, or will stop; null when all is well.' }),
    verification: DomainVerificationSchema,
    root_redirect_url: z.string().nullable(),
    not_found_url: z.string().nullable(),
    is_default: z.boolean(),
    verified_at: z.number().nullable(),
    last_checked_at: z.number().nullable(),
    record_missing_since: z.number().nullable(),
    created_at: z.number(),
  })
  .meta({
    id: 'Domain',
    example: {
      id: 'dom_V1StGXR8Z5jdHi7a',
      name: 'go.acme.example',
      verified: false,
      status: 'pending',
      status_reason: 'The TXT record _shortlinks.go.acme.example has not been found yet',
      verification: { type: 'TXT', name: '_shortlinks.go.acme.example', value: 'shortlinks-verify=4hG7Qx2LpZ0aB3cD4hG7Qx2L' },
      root_redirect_url: null,
      not_found_url: null,
      is_default: false,
      verified_at: null,
      last_checked_at: null,
      record_missing_since: null,
      created_at: 1795000000000,
    },
  });

export const CreateDomainBodySchema = z.strictObject({
  name: z
    .string({ error: 'name must be a string' })
    .trim()
    .min(1, 'name must not be empty')
    .max(LIMITS.domainNameChars, `name must be at most ${LIMITS.domainNameChars} characters`)
    .meta({ example: 'go.acme.example' }),
});

export const UpdateDomainBodySchema = z.strictObject({
  root_redirect_url: rootRedirectUrlField.nullable().optional(),
  not_found_url: notFoundUrlField.nullable().optional(),
  is_default: z.boolean({ error: 'is_default must be true or false' }).optional(),
});

export const DomainRefSchema = z.string().min(1).max(1024).meta({ example: 'dom_V1StGXR8Z5jdHi7a' });

export const DomainListSchema = z
  .object({
    domains: z.array(DomainSchema),
    server_domain: z.string().meta({
      description: "The server's own short domain (SHORT_DOMAIN's host): a link may always be put on it, by naming it in `domain`.",
      example: 'sho.rt',
    }),
  })
  .meta({ id: 'DomainList' });

export type Domain = z.infer<typeof DomainSchema>;
export type CreateDomainBody = z.infer<typeof CreateDomainBodySchema>;
export type UpdateDomainBody = z.infer<typeof UpdateDomainBodySchema>;
export type DomainList = z.infer<typeof DomainListSchema>;
