import { describe, expect, test } from 'vitest';
import { destinationProblem } from './destination-policy.ts';

const SHORT_HOST = 'sho.rt';

describe('destinationProblem', () => {
  test.each([
    'https://example.com/',
    'http://example.com:8080/path?q=1#frag',
    'https://8.8.8.8/',
    'https://[2001:4860:4860::8888]/',
    'https://xn--bcher-kva.example/',
    'https://sub.sho.rt.example.com/',
  ])('allows the public destination %s', (url) => {
    expect(destinationProblem(url, SHORT_HOST)).toBeUndefined();
  });

  test.each([
    ['localhost', 'http://localhost/'],
    ['localhost with a trailing dot', 'http://localhost./'],
    ['localhost in capitals', 'http://LOCALHOST:3000/'],
    ['a .localhost name', 'http://app.localhost/'],
    ['an mDNS name', 'http://printer.local/'],
    ['a single-label name', 'http://intranet/'],
    ['loopback', 'http://127.0.0.1/'],
    ['loopback anywhere in 127/8', 'http://127.255.0.9/'],
    ['loopback as a decimal number', 'http://2130706433/'],
    ['loopback in octal', 'http://0177.0.0.1/'],
    ['loopback in hex', 'http://0x7f000001/'],
    ['loopback shortened', 'http://127.1/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.31.255.255/'],
    ['private 192.168/16', 'http://192.168.0.1/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['multicast', 'http://224.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 unique local', 'http://[fc00::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private in hex', 'http://[::ffff:c0a8:1]/'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/'],
    ['NAT64 of a private address', 'http://[64:ff9b::10.0.0.1]/'],
    ['6to4', 'http://[2002:7f00:1::]/'],
    ['userinfo hiding a private host', 'https://good.example@127.0.0.1/'],
    ['userinfo on a public host', 'https://user:pass@example.com/'],
    ['the short domain', 'https://sho.rt/abc'],
    ['the short domain in capitals with a port', 'https://SHO.RT:8443/abc'],
    ['the short domain with a trailing dot', 'https://sho.rt./abc'],
  ])('refuses %s', (_why, url) => {
    expect(destinationProblem(url, SHORT_HOST)).toEqual(expect.any(String));
  });
});
