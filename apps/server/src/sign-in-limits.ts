import { createHash } from 'node:crypto';
import { AppError } from '@shortlinks/api/errors';
import type { SignInAttempts } from '@shortlinks/api/services';
import type { RateCounts } from './rate-counts.ts';
import { clientAddress } from './rate-limits.ts';

/** How many failed sign-ins are allowed per email and per client address in a window (docs/security.md). */
export interface SignInLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Failed sign-ins counted in the server's rate-limit counters (this process's, or Redis's for
 * every instance: shared-rate-counts.ts), under keys of their own: `sign-in-email:<sha256>`, so
 * no address is kept in clear, and `sign-in-ip:<address>`. Only failures count; once either is
 * spent, every attempt (a right password too) is refused until its window ends, so guessing
 * gains nothing from going on.
 */
export class CountedSignInAttempts implements SignInAttempts {
  readonly #counts: RateCounts;
  readonly #limits: SignInLimits;

  constructor(counts: RateCounts, limits: SignInLimits) {
    this.#counts = counts;
    this.#limits = limits;
  }

  async admit(email: string, address: string): Promise<void> {
    for (const [key, max, who] of this.#keys(email, address)) {
      // Taking nothing fits only while the count is below `max`: a read of the window's count.
      const { taken, ttl } = await this.#counts.take(key, 0, this.#limits.windowMs, max - 1);
      if (!taken) {
        const seconds = Math.max(1, Math.ceil(ttl / 1000));
        throw new AppError('RATE_LIMITED', `Too many failed sign-ins ${who}; try again in ${minutes(seconds)}`, undefined, seconds);
      }
    }
  }

  async failed(email: string, address: string): Promise<void> {
    for (const [key] of this.#keys(email, address)) {
      await this.#counts.take(key, 1, this.#limits.windowMs, Number.MAX_SAFE_INTEGER);
    }
  }

  #keys(email: string, address: string): [key: string, max: number, who: string][] {
    const emailKey = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
    return [
      [`sign-in-email:${emailKey}`, this.#limits.perEmail, 'for this email'],
      [`sign-in-ip:${clientAddress(address)}`, this.#limits.perAddress, 'from this address'],
    ];
  }
}

function minutes(seconds: number): string {
  if (seconds < 60) return `${seconds} seconds`;
  const whole = Math.ceil(seconds / 60);
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}
