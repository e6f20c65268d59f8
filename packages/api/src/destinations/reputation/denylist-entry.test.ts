import { describe, expect, test } from 'vitest';
import { destinationKeys, entryKey } from './denylist-prefix.ts';
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
    ['https://user@files.example/phish'],
  ])('refuses %j', (input) => {
    expect(() => denylistEntry(input)).toThrow(InvalidDenylistEntry);
  });
});

describe('URL prefixes are compared ignoring scheme, default port, unreserved escapes, repeated slashes, dot segments and case', () => {
  const entry = entryKey(denylistEntry('https://files.example/phish').value);
  const matches = (destination: string) => destinationKeys(destination).some((key) => key.startsWith(entry));

  test.each([
    'https://files.example/phish',
    'https://files.example/./phish',
    'https://FILES.example:443/phish?x',
    'http://files.example/phish',
    'http://files.example:80/phish',
    'https://files.example/%70hish',
    'https://files.example/%70%68%69%73%68',
    'https://files.example//phish',
    'https://files.example///phish//kit',
    'https://files.example/PHISH',
    'https://files.example/Phishing',
    'https://files.example/a/../phish',
    'https://files.example/a/%2e%2e/phish',
    'https://files.example/a//../phish',
    'https://files.example./phish',
  ])('%s matches https://files.example/phish', (destination) => {
    expect(matches(destination)).toBe(true);
  });

  test.each([
    'https://files.example/photos',
    'https://files.example/ph',
    'https://files.example/a/phish',
    'https://files.example:8443/phish',
    'https://www.files.example/phish',
    'https://files.example/%2Fphish',
    'https://files.example/?phish',
    'https://files.example/#/phish',
  ])('%s does not', (destination) => {
    expect(matches(destination)).toBe(false);
  });

  test('an entry keeps its escapes of reserved characters, and its query, and is found under its host and port', () => {
    const withQuery = entryKey('https://files.example:8443/a%2Fb?ID=%41x');
    expect(withQuery).toBe('files.example:8443/a%2fb?id=ax');
    expect(destinationKeys('http://files.example:8443/A%2fB?id=ax&more=1').some((key) => key.startsWith(withQuery))).toBe(true);
  });
});
