import { describe, expect, test } from 'vitest';
import { VisitLimiter } from './visit-limiter.ts';

const MINUTE = 60_000;

describe('VisitLimiter', () => {
  test('allows max visits per address in a window, then refuses with the seconds left in it', () => {
    const limiter = new VisitLimiter(3, MINUTE, 100);
    const start = 1_000_000;
    expect([0, 1, 2].map((i) => limiter.countVisit('203.0.113.1', start + i))).toEqual([undefined, undefined, undefined]);
    expect(limiter.countVisit('203.0.113.1', start + 10_000)).toBe(50);
    expect(limiter.countVisit('203.0.113.1', start + MINUTE - 1)).toBe(1);
  });

  test('counts each address on its own', () => {
    const limiter = new VisitLimiter(1, MINUTE, 100);
    expect(limiter.countVisit('203.0.113.1', 0)).toBeUndefined();
    expect(limiter.countVisit('203.0.113.2', 0)).toBeUndefined();
    expect(limiter.countVisit('203.0.113.1', 1)).toBe(60);
  });

  test('a new window gives the whole budget back', () => {
    const limiter = new VisitLimiter(2, MINUTE, 100);
    for (let i = 0; i < 5; i++) limiter.countVisit('203.0.113.1', 0);
    expect(limiter.countVisit('203.0.113.1', MINUTE)).toBeUndefined();
    expect(limiter.countVisit('203.0.113.1', MINUTE + 1)).toBeUndefined();
    expect(limiter.countVisit('203.0.113.1', MINUTE + 2)).toBe(60);
  });

  test('an address longer than any IP address (a forged X-Forwarded-For) is counted by its first 64 characters', () => {
    const limiter = new VisitLimiter(1, MINUTE, 100);
    const forged = 'x'.repeat(64);
    expect(limiter.countVisit(`${forged}${'a'.repeat(16_000)}`, 0)).toBeUndefined();
    expect(limiter.countVisit(`${forged}${'b'.repeat(16_000)}`, 1)).toBe(60);
    expect(limiter.countVisit('2001:db8:ffff:ffff:ffff:ffff:255.255.255.255', 1)).toBeUndefined();
  });

  test('tracks at most the given number of addresses, forgetting the least recently seen', () => {
    const limiter = new VisitLimiter(1, MINUTE, 2);
    limiter.countVisit('a', 0);
    limiter.countVisit('b', 0);
    limiter.countVisit('c', 0);
    // `a` was forgotten, so its budget is whole again; `c` is still counted.
    expect(limiter.countVisit('a', 1)).toBeUndefined();
    expect(limiter.countVisit('c', 1)).toBe(60);
  });
});
