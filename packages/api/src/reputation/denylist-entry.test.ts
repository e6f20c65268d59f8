import { describe, expect, test } from 'vitest';
import { denylistEntry, InvalidDenylistEntry } from './denylist-service.ts';

describe('denylistEntry: what an operator types, as it is stored and matched', () => {
  test.each([
    ['evil.example', { kind: 'domain', value: 'evil.example' }],
    ['  EVIL.Example.  ', { kind: 'domain', value: 'evil.example' }],
    ['bücher.example', { kind: 'domain', value: 'xn--bcher-kva.example' }],
    ['https://Files.Example.com./phish', { kind: 'prefix', value: 'https://files.example.com/phish' }],
    ['HTTP://example.com', { kind: 'prefix', value: 'http://example.com/' }],
    ['https://bücher.example/ä', { kind: 'prefix', value: 'https://xn--bcher-kva.example/%C3%A4' }],
  ])('%s → %o', (input, expected) => {
    expect(denylistEntry(input)).toEqual(expected);
  });

  test.each([
    ['ftp://files.example/'],
    ['javascript:alert(1)'],
    ['a/b'],
    ['user@evil.example'],
    ['evil.example:80'],
    [''],
    ['   '],
    ['http://'],
  ])('refuses %j', (input) => {
    expect(() => denylistEntry(input)).toThrow(InvalidDenylistEntry);
  });
});
