import { z } from 'zod';
import { EXTENSION_SCOPES, type Scope } from './keys.ts';

/**
 * Connect (docs/accounts.md, "Connect"): a client (the browser extension) gets a key without one
 * being pasted, like OAuth's PKCE. It makes a random verifier, opens the dashboard at
 * `/app/connect?challenge=<base64url(SHA-256(verifier))>&client=extension`; the signed-in person
 * approves or declines; the client claims the key with the verifier.
 */
export const CONNECT_CLIENTS = {
  extension: { name: 'Browser extension', scopes: EXTENSION_SCOPES },
} as const satisfies Record<string, { name: string; scopes: readonly Scope[] }>;
export type ConnectClient = keyof typeof CONNECT_CLIENTS;
export const CONNECT_CLIENT_NAMES = Object.keys(CONNECT_CLIENTS) as [ConnectClient, ...ConnectClient[]];

/** How long an answer waits for its claim. */
export const CONNECT_TTL_MS = 10 * 60_000;

/** base64url of a SHA-256 digest: 43 characters. */
export const ConnectChallengeSchema = z
  .string({ error: 'challenge must be a string' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'challenge must be the base64url SHA-256 of the verifier (43 characters)');

/** PKCE's verifier: 43 to 128 unreserved characters (RFC 7636); ours are base64url. */
export const ConnectVerifierSchema = z
  .string({ error: 'verifier must be a string' })
  .regex(/^[A-Za-z0-9_~.-]{43,128}$/, 'verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~"');

export const ConnectAnswerBodySchema = z.strictObject({
  challenge: ConnectChallengeSchema,
  client: z.enum(CONNECT_CLIENT_NAMES, { error: `client must be one of ${CONNECT_CLIENT_NAMES.join(', ')}` }),
});

export const ConnectClaimBodySchema = z.strictObject({ verifier: ConnectVerifierSchema });

/**
 * What a claim answers: `pending` until the person answers; `approved` once, with the key itself
 * (`key`); `declined`; `expired` after 10 minutes or once claimed.
 */
export const ConnectClaimSchema = z.object({
  status: z.enum(['pending', 'approved', 'declined', 'expired']),
  key: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  scopes: z.array(z.string()).optional(),
  workspace: z.string().optional(),
});
export type ConnectClaim = z.infer<typeof ConnectClaimSchema>;
