import { LIMITS } from '@shortlinks/contract';
import { validationError } from '../errors.ts';

export interface ExpiryState {
  expires_at: Date | null;
  expiration_url: string | null;
}

/** The expiry fields of a request; an empty expiration_url has already become null. */
export interface ExpiryChange {
  expires_at?: number | null | undefined;
  expiration_url?: string | null | undefined;
}

export const NO_EXPIRY: ExpiryState = { expires_at: null, expiration_url: null };

/**
 * The expiry after a request (spec: POST /links and PATCH /links/{id}): expires_at in the future
 * and at most 10 years ahead; expires_at null removes the fallback too; a fallback needs an expiry.
 * `pastKept`: an imported link may arrive already expired, as it was (docs/import-export.md).
 */
export function applyExpiry(current: ExpiryState, change: ExpiryChange, now: number, pastKept = false): ExpiryState {
  let next = { ...current };
  if (change.expires_at !== undefined) {
    if (change.expires_at === null) {
      next = { ...NO_EXPIRY };
    } else {
      const latest = new Date(now);
      latest.setUTCFullYear(latest.getUTCFullYear() + LIMITS.expiryYearsAhead);
      if (change.expires_at <= now && !pastKept) throw validationError('expires_at', 'expires_at must be in the future');
      if (change.expires_at > latest.getTime()) {
        throw validationError('expires_at', `expires_at must be at most ${LIMITS.expiryYearsAhead} years ahead`);
      }
      next.expires_at = new Date(change.expires_at);
    }
  }
  if (change.expiration_url !== undefined) {
    if (change.expiration_url !== null && next.expires_at === null) {
      throw validationError('expiration_url', 'expiration_url requires expires_at');
    }
    next.expiration_url = change.expiration_url;
  }
  return next;
}
