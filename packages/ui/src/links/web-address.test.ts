import { describe, expect, test } from 'vitest';
import { completeAddress } from './web-address.ts';

describe('completeAddress', () => {
  test('an address typed without a scheme is completed with https://', () => {
    expect(completeAddress('example.com/x')).toBe('https://example.com/x');
    expect(completeAddress(' docs.example.org ')).toBe('https://docs.example.org');
    expect(completeAddress('example.com:8443/a?b=c')).toBe('https://example.com:8443/a?b=c');
    expect(completeAddress('//example.com/x')).toBe('https://example.com/x');
  });

  test('an address with a scheme is kept as typed, trimmed', () => {
    expect(completeAddress(' http://example.com/x ')).toBe('http://example.com/x');
    expect(completeAddress('HTTPS://Example.com')).toBe('HTTPS://Example.com');
    expect(completeAddress('ftp://example.com/file')).toBe('ftp://example.com/file');
  });

  test('text that is not a host is left for the server to refuse, not guessed at', () => {
    expect(completeAddress('')).toBe('');
    expect(completeAddress('localhost:3000')).toBe('localhost:3000');
    expect(completeAddress('mailto:ann@example.com')).toBe('mailto:ann@example.com');
    expect(completeAddress('not an address.com')).toBe('not an address.com');
    expect(completeAddress('spring')).toBe('spring');
  });
});
