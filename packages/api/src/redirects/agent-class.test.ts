import { describe, expect, test } from 'vitest';
import { agentClass, referrerHost } from './agent-class.ts';

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
