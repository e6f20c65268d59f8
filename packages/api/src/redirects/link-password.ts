import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * A link's password (issue #30, docs/redirects.md): stored only as an argon2id hash (PHC string,
 * with its salt and parameters), checked only by argon2's verification, never compared as text.
 *
 * The parameters are OWASP's first choice for argon2id (19 MiB, 2 passes, 1 lane): about 50 ms
 * of one core here, which the guessing limits (password-guesses.ts) keep from becoming a way to
 * load the server.
 */
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * Whether `password` is the link's. argon2's own comparison of the computed and stored hashes is
 * constant-time, and the work before it is the same for every candidate: a near miss takes as
 * long as a far one. A stored value that is not an argon2 hash matches nothing.
 */
export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Whether a value is an argon2id hash this server can verify (what an import may carry instead of a password). */
export function isArgon2idHash(value: string): boolean {
  return /^\$argon2id\$v=19\$m=\d{1,7},t=\d{1,3},p=\d{1,3}\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{16,128}$/.test(value);
}
