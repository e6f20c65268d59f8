import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { validationError } from '../errors.ts';
import { isCommonPassword } from './common-passwords.ts';

/** The bounds of a password, in characters (docs/accounts.md). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The password `password` would be, or a VALIDATION_ERROR on `field` saying why not: 10 to 256
 * characters, and not among the most common passwords. No rule of character classes: length and
 * the list are what NIST SP 800-63B asks.
 */
export function checkNewPassword(password: string, field = 'password'): string {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) throw validationError(field, `The password must be at least ${PASSWORD_MIN_LENGTH} characters long`);
  if (length > PASSWORD_MAX_LENGTH) throw validationError(field, `The password must be at most ${PASSWORD_MAX_LENGTH} characters long`);
  if (isCommonPassword(password)) throw validationError(field, 'This password is one of the most common ones; choose another');
  return password;
}

/**
 * The argon2id hash of a password in PHC form (`$argon2id$v=19$m=19456,t=2,p=1$…`): @node-rs/argon2's
 * defaults, which are argon2id with OWASP's recommended memory (19 MiB) and passes (2).
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** Whether `password` is the one `stored` was made from; false for anything that is not a hash. */
export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Checked instead of a real hash when no person has the email sent to sign-in, so an unknown email
 * costs the same argon2id work as a wrong password and the answer's time says nothing
 * (docs/security.md, "Sign-in").
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hash(randomBytes(24).toString('base64url'));
  await passwordMatches(await dummy, password);
  return false;
}
