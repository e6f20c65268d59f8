import { z } from 'zod';
import type { RoleName } from './people.ts';

/**
 * API keys with scopes (docs/accounts.md, "Keys and scopes"). A key may call a procedure only when
 * it holds the procedure's scope; `X.write` includes `X.read`. A person's session is governed by
 * the person's role alone.
 */
export const SCOPES = [
  'links.read',
  'links.write',
  'tags.read',
  'tags.write',
  'analytics.read',
  'keys.write',
  'audit.read',
  'domains.read',
  'domains.write',
  'webhooks.read',
  'webhooks.write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The least role whose holder may give a key each scope (docs/accounts.md, "Keys and scopes"): the
 * least role that may call that scope's procedures, so a key never does more than its maker's
 * role. A viewer makes read-only keys; only owners and admins give the scopes of domains' writes,
 * webhooks and the audit log. One table for the server, which enforces it, and the dashboard's
 * keys page, which offers only what it allows.
 */
export const SCOPE_LEAST_ROLE: Record<Scope, RoleName> = {
  'links.read': 'viewer',
  'links.write': 'member',
  'tags.read': 'viewer',
  'tags.write': 'member',
  'analytics.read': 'viewer',
  'keys.write': 'member',
  'audit.read': 'admin',
  'domains.read': 'viewer',
  'domains.write': 'admin',
  'webhooks.read': 'admin',
  'webhooks.write': 'admin',
};

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether a key holding `held` may do what `needed` allows: `X.write` includes `X.read`. */
export function scopeGranted(held: Iterable<Scope>, needed: Scope): boolean {
  for (const scope of held) {
    if (scope === needed) return true;
    if (needed.endsWith('.read') && scope === `${needed.slice(0, -'.read'.length)}.write`) return true;
  }
  return false;
}

/**
 * The scopes the browser extension asks for when it connects (docs/accounts.md, "Connect"): it
 * shortens and edits links, picks and creates tags, shows a link's clicks, and picks a branded
 * domain. Nothing else: no keys, webhooks, audit log or domain changes.
 */
export const EXTENSION_SCOPES = ['links.write', 'tags.write', 'analytics.read', 'domains.read'] as const satisfies readonly Scope[];

export const KEY_LIMITS = { nameChars: 100 } as const;

export const ScopeSchema = z.enum(SCOPES, {
  error: (issue) => `scopes: unknown scope ${JSON.stringify(issue.input)} (one of ${SCOPES.join(', ')})`,
});

const scopesField = z
  .array(ScopeSchema, { error: 'scopes must be a list of scopes' })
  .min(1, 'scopes must name at least one scope')
  .max(SCOPES.length * 2, 'scopes names too many scopes')
  .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope)))
  .meta({ example: ['links.write', 'tags.read'] });

const nameField = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .max(KEY_LIMITS.nameChars, `name must be at most ${KEY_LIMITS.nameChars} characters`);

export const CreateKeyBodySchema = z.strictObject({
  name: nameField,
  scopes: scopesField,
  expires_at: z
    .number({ error: 'expires_at must be a time in milliseconds or null' })
    .int('expires_at must be a whole number of milliseconds')
    .refine((at) => at > Date.now(), 'expires_at must be in the future')
    .nullable()
    .optional()
    .meta({ description: 'When the key stops working (Unix epoch ms); null or absent: never.' }),
});

export const ApiKeySchema = z
  .object({
    id: z.string().meta({ description: 'Starts with `key_`.' }),
    name: z.string(),
    scopes: z.array(ScopeSchema),
    created_at: z.number(),
    expires_at: z.number().nullable(),
    last_used_at: z
      .number()
      .nullable()
      .meta({ description: 'When the key was last used, to the minute (it is written at most once a minute).' }),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.infer<typeof ApiKeySchema>;

/** What POST /keys answers: the key itself, shown there only. */
export const NewApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({ description: '`slk_…`: send it as `Authorization: Bearer <key>`. Shown only in this answer.' }),
}).meta({ id: 'NewApiKey' });

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) }).meta({ id: 'ApiKeyList' });

export const ApiKeyRefSchema = z.string().min(1).max(100).meta({ example: 'key_4hG7Qx2LpZ0aB3cD' });
