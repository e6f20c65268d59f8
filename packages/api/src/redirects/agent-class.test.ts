import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { agentClass, countryCode, describeAgent, referrerHost } from './agent-class.ts';

/** Strings of `unit` whose length is uniform up to `max` (fast-check favours short ones otherwise). */
const upTo = (max: number, unit: fc.Arbitrary<string> | 'binary' = 'binary') =>
  fc.integer({ min: 0, max }).chain((length) => fc.string({ unit, minLength: length, maxLength: length }));
const HOST_CHARACTER = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789.-');

describe('agentClass', () => {
  test.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1', 'tablet'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['facebookexternalhit/1.1', 'bot'],
    ['Slackbot-LinkExpanding 1.0', 'bot'],
    ['curl/8.5.0', 'bot'],
    ['node', 'bot'],
    [undefined, 'unknown'],
  ])('%s is %s', (userAgent, expected) => {
    expect(agentClass(userAgent)).toBe(expected);
  });
});

describe('referrerHost', () => {
  test('keeps only the host of the Referer', () => {
    expect(referrerHost('https://News.Example.org/item?id=1&user=secret')).toBe('news.example.org');
    expect(referrerHost('not a url')).toBeNull();
    expect(referrerHost(undefined)).toBeNull();
  });

  test('a host longer than any DNS name (253 characters) is no referrer; one of 253 is kept', () => {
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(referrerHost(`https://${longest}/`)).toBe(longest);
    expect(referrerHost(`https://x${longest}/`)).toBeNull();
    expect(referrerHost(`http://${'a'.repeat(4000)}.example/`)).toBeNull();
  });

  test('whatever the Referer, the host is null or at most 253 characters without NUL', () => {
    const referer = fc.oneof(
      upTo(16_384),
      fc
        .tuple(fc.constantFrom('http://', 'https://', 'android-app://', 'x://'), upTo(1_000, HOST_CHARACTER), upTo(16), upTo(1_000))
        .map(([scheme, host, middle, rest]) => `${scheme}${host}${middle}/${rest}`),
      fc.webUrl(),
    );
    fc.assert(
      fc.property(referer, (value) => {
        const host = referrerHost(value);
        return host === null || (host.length > 0 && host.length <= 253 && !host.includes('\u0000'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('describeAgent', () => {
  test('names the browser and operating system of a visit', () => {
    expect(
      describeAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'),
    ).toEqual({ device: 'desktop', browser: 'Chrome', os: 'Windows' });
    expect(
      describeAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36'),
    ).toEqual({ device: 'mobile', browser: 'Chrome', os: 'Android' });
    expect(describeAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0; rv:132.0) Gecko/20100101 Firefox/132.0')).toEqual({
      device: 'desktop',
      browser: 'Firefox',
      os: 'macOS',
    });
  });

  test('what Bowser cannot name stays null', () => {
    expect(describeAgent('Mozilla/5.0 (Unknown) SomethingElse/1.0')).toMatchObject({ device: 'desktop', os: null });
    expect(describeAgent(undefined)).toEqual({ device: 'unknown', browser: null, os: null });
  });

  test('a browser name over 64 characters is unknown: Bowser names an unknown browser after the first token', () => {
    expect(describeAgent(`${'b'.repeat(64)}/1.0 (Windows NT 10.0)`)).toMatchObject({ browser: 'b'.repeat(64), os: 'Windows' });
    expect(describeAgent(`${'b'.repeat(65)}/1.0 (Windows NT 10.0)`)).toMatchObject({ browser: null, os: 'Windows' });
  });

  test('whatever the User-Agent, the device is a known class and names are null or at most 64 characters', () => {
    const userAgent = fc.oneof(
      upTo(16_384),
      fc
        .tuple(
          upTo(200, HOST_CHARACTER),
          fc.constantFrom('/1.0 (Windows NT 10.0)', ' Mobile Safari/537', ' (iPad; CPU OS 17_0)', '/2 (X11; Linux)'),
        )
        .map(([token, rest]) => token + rest),
    );
    fc.assert(
      fc.property(userAgent, (value) => {
        const { device, browser, os } = describeAgent(value);
        const bounded = (name: string | null) => name === null || (name.length > 0 && name.length <= 64 && !name.includes('\u0000'));
        return ['bot', 'desktop', 'mobile', 'tablet', 'unknown'].includes(device) && bounded(browser) && bounded(os);
      }),
      { numRuns: 300 },
    );
  });
});

describe('countryCode', () => {
  test('keeps ISO alpha-2 codes and drops unknown, Tor and garbage values', () => {
    expect(countryCode('de')).toBe('DE');
    expect(countryCode(['FR', 'DE'])).toBe('FR');
    expect(countryCode('XX')).toBeNull();
    expect(countryCode('T1')).toBeNull();
    expect(countryCode('DEU')).toBeNull();
    expect(countryCode(undefined)).toBeNull();
  });

  test('whatever the header, the country is null or two capital letters', () => {
    const header = fc.oneof(upTo(16_384), upTo(3), fc.array(upTo(3), { maxLength: 3 }));
    fc.assert(
      fc.property(header, (value) => {
        const code = countryCode(value);
        return code === null || /^[A-Z]{2}$/.test(code);
      }),
      { numRuns: 300 },
    );
  });
});
