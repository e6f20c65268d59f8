import { describe, expect, test } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = Date.UTC(2026, 10, 28, 12, 0, 0);
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

describe('how long ago', () => {
  test('under a minute is just now', () => {
    expect(relativeTime(now - 59_000, now)).toBe('just now');
    expect(relativeTime(now + 5_000, now)).toBe('just now');
  });

  test('in the largest whole unit', () => {
    expect(relativeTime(now - 5 * 60_000, now)).toBe(relative.format(-5, 'minute'));
    expect(relativeTime(now - 3 * 3600_000 - 59 * 60_000, now)).toBe(relative.format(-3, 'hour'));
    expect(relativeTime(now - 24 * 3600_000, now)).toBe(relative.format(-1, 'day'));
    expect(relativeTime(now - 400 * 24 * 3600_000, now)).toBe(relative.format(-1, 'year'));
  });
});
