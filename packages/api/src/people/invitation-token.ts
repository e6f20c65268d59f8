import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The secret of an invitation link, and of every other one-time link (the first owner's setup, a
 * password reset). The link carries the token; the database keeps only its SHA-256, so a copy of the
 * database (a backup, a read replica, an injection) cannot be turned into working links.
 * docs/security.md, "Invitation tokens".
 */

/** 32 random bytes: 256 bits, far past the 128 that make guessing hopeless. */
const TOKEN_BYTES = 32;

/** An invitation is good for 7 days (the rule); one-time links of other kinds pick their own. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** base64url of 32 bytes: 43 characters of `A-Z a-z 0-9 - _`, safe in a path or a query without escaping. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface OneTimeToken {
  /** Goes into the link, shown or mailed once; never stored. */
  token: string;
  /** Stored (hex SHA-256), and looked up by: `WHERE token_hash = hashOneTimeToken(token)`. */
  hash: string;
}

export function newOneTimeToken(): OneTimeToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashOneTimeToken(token) };
}

/**
 * SHA-256 without salt or stretching: the token is 256 random bits, so its hash cannot be searched
 * back, and a fast hash lets the database find the row by it (a unique index on the hash).
 */
export function hashOneTimeToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a string has the shape of a token, so a malformed link is refused before any lookup. */
export function isOneTimeTokenShaped(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * Whether `token` is the one whose hash was stored, compared in constant time (for a row read by
 * its id rather than found by the hash).
 */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  if (!isOneTimeTokenShaped(token)) return false;
  const typed = Buffer.from(hashOneTimeToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === typed.length && timingSafeEqual(stored, typed);
}

/** When an invitation made at `createdAt` stops working. */
export function invitationExpiresAt(createdAt: Date = new Date()): Date {
  return new Date(createdAt.getTime() + INVITATION_LIFETIME_MS);
}

/** Expired at the instant itself: a link is good strictly before its `expiresAt`. */
export function hasExpired(expiresAt: Date, now: Date = new Date()): boolean {
  return now.getTime() >= expiresAt.getTime();
}
