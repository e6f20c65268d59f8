import { z } from 'zod';
import { SCOPES } from './scopes.ts';

export * from './scopes.ts';

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
