import { describe, expect, test } from 'vitest';
import { agentClass, countryCode, describeAgent, referrerHost } from './agent-class.ts';

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
});
