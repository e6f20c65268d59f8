import { describe, expect, test } from 'vitest';
import { countriesNeverKnown } from './country-hint.ts';

describe('countriesNeverKnown', () => {
  test('is true when every click’s country is unknown, as on an install without CLICK_COUNTRY_HEADER', () => {
    expect(countriesNeverKnown([{ value: null, clicks: 12 }])).toBe(true);
  });

  test('is false when one country is known, or there are no clicks to judge by', () => {
    expect(
      countriesNeverKnown([
        { value: null, clicks: 12 },
        { value: 'FR', clicks: 1 },
      ]),
    ).toBe(false);
    expect(countriesNeverKnown([])).toBe(false);
  });
});
