import { describe, expect, test } from 'vitest';
import { AppError } from '../errors.ts';
import { applyExpiry, NO_EXPIRY } from './expiry.ts';

const NOW = Date.UTC(2026, 0, 1);
const later = (days: number) => NOW + days * 86_400_000;

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.field;
    throw error;
  }
  return undefined;
}

describe('applyExpiry', () => {
  test('sets an expiry and a fallback', () => {
    expect(applyExpiry(NO_EXPIRY, { expires_at: later(1), expiration_url: 'https://e.example/' }, NOW)).toEqual({
      expires_at: new Date(later(1)),
      expiration_url: 'https://e.example/',
    });
  });

  test('accepts exactly ten calendar years ahead and refuses one millisecond more', () => {
    const tenYears = Date.UTC(2036, 0, 1);
    expect(applyExpiry(NO_EXPIRY, { expires_at: tenYears }, NOW).expires_at?.getTime()).toBe(tenYears);
    expect(fieldOf(() => applyExpiry(NO_EXPIRY, { expires_at: tenYears + 1 }, NOW))).toBe('expires_at');
  });

  test('refuses an expiry that is not in the future', () => {
    expect(fieldOf(() => applyExpiry(NO_EXPIRY, { expires_at: NOW }, NOW))).toBe('expires_at');
  });

  test('null expires_at removes the fallback too', () => {
    const current = { expires_at: new Date(later(5)), expiration_url: 'https://e.example/' };
    expect(applyExpiry(current, { expires_at: null }, NOW)).toEqual(NO_EXPIRY);
  });

  test('null expiration_url removes only the fallback', () => {
    const current = { expires_at: new Date(later(5)), expiration_url: 'https://e.example/' };
    expect(applyExpiry(current, { expiration_url: null }, NOW)).toEqual({ expires_at: current.expires_at, expiration_url: null });
  });

  test('a fallback needs an expiry, on the request or already on the link', () => {
    expect(fieldOf(() => applyExpiry(NO_EXPIRY, { expiration_url: 'https://e.example/' }, NOW))).toBe('expiration_url');
    expect(
      fieldOf(() =>
        applyExpiry(
          { expires_at: new Date(later(5)), expiration_url: null },
          { expires_at: null, expiration_url: 'https://e.example/' },
          NOW,
        ),
      ),
    ).toBe('expiration_url');
    const onLink = { expires_at: new Date(later(5)), expiration_url: null };
    expect(applyExpiry(onLink, { expiration_url: 'https://e.example/' }, NOW).expiration_url).toBe('https://e.example/');
  });
});
