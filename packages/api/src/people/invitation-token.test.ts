import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hasExpired,
  hashOneTimeToken,
  INVITATION_LIFETIME_MS,
  invitationExpiresAt,
  isOneTimeTokenShaped,
  newOneTimeToken,
  tokenMatchesHash,
} from './invitation-token.ts';

describe('invitation tokens', () => {
  it('a token is URL-safe, carries 256 random bits, and only its SHA-256 is to be stored', () => {
    const { token, hash } = newOneTimeToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(encodeURIComponent(token)).toBe(token);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).not.toContain(token);
    expect(hashOneTimeToken(token)).toBe(hash);
  });

  it('tokens do not repeat', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newOneTimeToken().token));
    expect(tokens.size).toBe(1000);
  });

  it('a token matches its own hash only; a changed, truncated or malformed token does not', () => {
    const { token, hash } = newOneTimeToken();
    expect(tokenMatchesHash(token, hash)).toBe(true);
    expect(tokenMatchesHash(newOneTimeToken().token, hash)).toBe(false);
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(tokenMatchesHash(flipped, hash)).toBe(false);
    expect(tokenMatchesHash(token.slice(0, 42), hash)).toBe(false);
    expect(tokenMatchesHash('', hash)).toBe(false);
    // The stored hash itself is not a token (a leaked hash cannot be replayed as the link).
    expect(tokenMatchesHash(hash, hash)).toBe(false);
    expect(tokenMatchesHash(token, 'not hex')).toBe(false);
    expect(tokenMatchesHash(token, '')).toBe(false);
  });

  it('the shape check refuses what no link ever carries', () => {
    expect(isOneTimeTokenShaped(newOneTimeToken().token)).toBe(true);
    for (const bad of [
      '',
      'a'.repeat(42),
      'a'.repeat(44),
      `${'a'.repeat(42)}=`,
      `${'a'.repeat(42)}/`,
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)}\n`,
    ]) {
      expect(isOneTimeTokenShaped(bad)).toBe(false);
    }
  });

  it('an invitation expires 7 days after it was made, at that instant', () => {
    const created = new Date('2026-11-27T12:00:00.000Z');
    const expires = invitationExpiresAt(created);
    expect(INVITATION_LIFETIME_MS).toBe(604_800_000);
    expect(expires.toISOString()).toBe('2026-12-04T12:00:00.000Z');
    expect(hasExpired(expires, new Date(expires.getTime() - 1))).toBe(false);
    expect(hasExpired(expires, expires)).toBe(true);
    expect(hasExpired(expires, new Date(expires.getTime() + 1))).toBe(true);
  });
});
