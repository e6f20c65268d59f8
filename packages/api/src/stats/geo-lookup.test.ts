import { describe, expect, test } from 'vitest';
import { bundledGeoDatabases, GeoLookup, publicAddress } from './geo-lookup.ts';

describe('publicAddress: only public unicast addresses are looked up', () => {
  test.each([
    ['8.8.8.8', '8.8.8.8'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['2001:4860:4860::8888', '2001:4860:4860::8888'],
    ['10.0.0.1', undefined],
    ['172.16.5.4', undefined],
    ['192.168.1.1', undefined],
    ['127.0.0.1', undefined],
    ['::1', undefined],
    ['::ffff:10.0.0.1', undefined],
    ['fe80::1', undefined],
    ['fd00::1', undefined],
    ['169.254.1.1', undefined],
    ['100.64.0.1', undefined],
    ['203.0.113.9', undefined],
    ['not an address', undefined],
    ['', undefined],
  ])('%s → %s', (address, expected) => {
    expect(publicAddress(address)).toBe(expected);
  });
});

describe('GeoLookup with the bundled DB-IP Lite City files', () => {
  test('IPv4, IPv4-mapped IPv6 and IPv6 addresses, each in its own file', { timeout: 30_000 }, async () => {
    const found = await new GeoLookup(bundledGeoDatabases()).locate(['8.8.8.8', '::ffff:1.1.1.1', '2001:4860:4860::8888', '10.0.0.1']);
    expect(found.get('8.8.8.8')).toEqual({ country: 'US', city: 'Mountain View' });
    expect(found.get('::ffff:1.1.1.1')).toEqual({ country: 'AU', city: 'Sydney' });
    expect(found.get('2001:4860:4860::8888')?.country).toMatch(/^[A-Z]{2}$/);
    expect(found.get('10.0.0.1')).toEqual({ country: null, city: null });
  });

  test('no database: every address unknown, nothing opened', async () => {
    const lookup = new GeoLookup([]);
    expect(lookup.enabled).toBe(false);
    expect((await lookup.locate(['8.8.8.8'])).get('8.8.8.8')).toEqual({ country: null, city: null });
  });

  test('a file that is not a database fails the lookup (the recorder then writes the clicks without a place)', async () => {
    const lookup = new GeoLookup([new URL(import.meta.url).pathname]);
    await expect(lookup.load()).rejects.toThrow();
    await expect(lookup.locate(['8.8.8.8'])).rejects.toThrow();
  });
});
