import { describe, expect, test } from 'vitest';
import { parseServerUrl } from './server-url.ts';

describe('parseServerUrl', () => {
  test('a host name alone, a trailing slash or the API address all give the origin', () => {
    expect(parseServerUrl('links.example.com')).toEqual({ origin: 'https://links.example.com' });
    expect(parseServerUrl(' https://links.example.com/ ')).toEqual({ origin: 'https://links.example.com' });
    expect(parseServerUrl('http://127.0.0.1:3000/api/v1/')).toEqual({ origin: 'http://127.0.0.1:3000' });
    expect(parseServerUrl('https://links.example.com/trpc')).toEqual({ origin: 'https://links.example.com' });
  });

  test('an empty value, another scheme or a path is refused with an explanation', () => {
    expect(parseServerUrl('')).toEqual({ problem: expect.stringContaining('Enter the address') });
    expect(parseServerUrl('ftp://links.example.com')).toEqual({ problem: expect.stringContaining('http:// or https://') });
    expect(parseServerUrl('https://links.example.com/admin')).toEqual({ problem: expect.stringContaining('without a path') });
    expect(parseServerUrl('https://exa mple.com')).toEqual({ problem: expect.stringContaining('not a web address') });
  });
});
