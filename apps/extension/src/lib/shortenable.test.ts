import { describe, expect, test } from 'vitest';
import { whyNotShortenable } from './shortenable.ts';

const own = ['https://links.example.com', 'https://sho.rt'];

describe('whyNotShortenable', () => {
  test('ordinary web pages can be shortened', () => {
    expect(whyNotShortenable('https://example.com/article?id=1', own)).toBeUndefined();
    expect(whyNotShortenable('http://blog.example.org:8080/post', own)).toBeUndefined();
    expect(whyNotShortenable('https://93.184.215.14/', own)).toBeUndefined();
  });

  test('browser pages, files and pages without an address are refused', () => {
    expect(whyNotShortenable('chrome://settings', own)).toMatch(/Browser pages/);
    expect(whyNotShortenable('chrome-extension://abc/popup.html', own)).toMatch(/Browser pages/);
    expect(whyNotShortenable('about:blank', own)).toMatch(/Browser pages/);
    expect(whyNotShortenable('file:///home/me/notes.html', own)).toMatch(/Local files/);
    expect(whyNotShortenable(undefined, own)).toMatch(/no address/);
  });

  test('the short domain and the server itself are refused, whatever the case or port', () => {
    expect(whyNotShortenable('https://sho.rt/abc123', own)).toMatch(/already a short link/);
    expect(whyNotShortenable('https://LINKS.example.com:8443/docs', own)).toMatch(/already a short link/);
  });

  test('loopback, private and local-network addresses are refused', () => {
    for (const url of [
      'http://localhost:3000/',
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://10.0.0.8/',
      'http://192.168.1.1/admin',
      'http://printer.local/',
      'http://intranet/',
      'http://[::ffff:192.168.0.1]/',
    ]) {
      expect(whyNotShortenable(url, own), url).toMatch(/private or local/);
    }
  });
});
