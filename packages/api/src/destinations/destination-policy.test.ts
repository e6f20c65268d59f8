import fc from 'fast-check';
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
    ['the short domain with its default port', 'https://sho.rt:443/abc'],
    ['the short domain in full-width letters', 'https://ｓｈｏ.ｒｔ/abc'],
    ['the short domain behind userinfo', 'https://example.com@sho.rt/abc'],
    ['javascript:', 'javascript:alert(document.cookie)'],
    ['JAVASCRIPT: in capitals', 'JAVASCRIPT:alert(1)'],
    ['data:', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['file:', 'file:///etc/passwd'],
    ['ftp:', 'ftp://example.com/file'],
    ['ws:', 'ws://example.com/socket'],
    ['blob:', 'blob:https://example.com/uuid'],
    ['loopback with a percent-encoded trailing dot', 'http://127.0.0.1%2e/'],
    ['loopback in full-width digits', 'http://１２７.０.０.１/'],
    ['loopback in hex with capitals', 'http://0X7F.1/'],
    ['IPv4-mapped in capitals, written out', 'HTTP://[0:0:0:0:0:FFFF:127.0.0.1]/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['IPv6 documentation range', 'http://[2001:db8::1]/'],
    ['Teredo', 'http://[2001::1]/'],
    ['IPv6 site-local', 'http://[fec0::1]/'],
    ['IPv6 discard-only', 'http://[100::1]/'],
    ['NAT64 of a public address', 'http://[64:ff9b::8.8.8.8]/'],
    ['local-use NAT64', 'http://[64:ff9b:1::1]/'],
    ['6to4 of a public address', 'http://[2002:808:808::1]/'],
    ['IPv4 reserved 240/4', 'http://240.0.0.1/'],
    ['IPv4 benchmarking 198.18/15', 'http://198.19.0.1/'],
    ['IPv4 documentation 203.0.113/24', 'http://203.0.113.7/'],
    ['IPv4 "this network" 0/8', 'http://0.1.2.3/'],
  ])('refuses %s', (_why, url) => {
    expect(destinationProblem(url, SHORT_HOST)).toEqual(expect.any(String));
  });

  describe('URLs that browsers (WHATWG) and RFC 3986 clients (curl, crawlers, unfurlers) read differently', () => {
    test.each([
      [
        'a backslash before "@" (WHATWG: host attacker.example; RFC 3986: host 127.0.0.1)',
        'http://attacker.example\\@127.0.0.1:18999/admin',
      ],
      ['a backslash hiding a public host', 'https://good.example\\@example.org/offer'],
      ['a backslash ending the host', 'https://example.com\\'],
      ['a backslash after the port', 'https://example.com:8443\\x'],
      ['a backslash in the path', 'https://example.com/a\\b'],
      ['a backslash starting the path', 'https://example.com\\@x/'],
      ['an empty authority (http:///host)', 'http:///example.com/page'],
      ['four slashes', 'https:////example.com/'],
      ['an empty userinfo', 'https://@example.com/'],
      ['an empty userinfo with a colon', 'https://:@example.com/'],
      ['a percent-encoded letter in the host', 'https://exa%6Dple.com/'],
      ['a percent-encoded dot in the host', 'https://example%2Ecom/'],
      ['a public IPv4 address in hex', 'http://0x08080808/'],
      ['a public IPv4 address as one decimal number', 'http://134744072/'],
      ['a public IPv4 address in octal', 'http://010.010.010.010/'],
      ['a public IPv4 address with leading zeros', 'http://08.8.8.8/'],
      ['a shortened public IPv4 address', 'http://8.8.2056/'],
      ['a public IPv4 address with a trailing dot', 'http://8.8.8.8./'],
      ['a public IPv4 address in full-width digits behind a backslash', 'http://x\\@８.８.８.８/'],
    ])('refuses %s: %s', (_why, url) => {
      expect(destinationProblem(url, SHORT_HOST)).toEqual(expect.any(String));
    });

    test.each([
      ['http://attacker.example\\@127.0.0.1:18999/admin', /backslash.*http:\/\/attacker\.example\/@127\.0\.0\.1:18999\/admin/],
      ['http://0x08080808/dns', /host "0x08080808".*"8\.8\.8\.8".*http:\/\/8\.8\.8\.8\/dns/],
      ['http:///example.com/page', /no host.*http:\/\/example\.com\/page/],
      ['https://exa%6Dple.com/', /percent-encode.*https:\/\/example\.com\//],
      ['https://@example.com/', /user name or password/],
    ])('says why %s is refused and how browsers read it', (url, message) => {
      expect(destinationProblem(url, SHORT_HOST)).toMatch(message);
    });

    test.each([
      'https://example.com/page?x=1',
      'https://example.com',
      'HTTPS://Example.COM:443/a/./b/../c?q=50%&next=https://example.org/',
      'https://example.com/search?q=C:\\Users#frag\\x',
      'https://example.com//double//slashes',
      'https://example.com/p@x?e=a@b#@127.0.0.1',
      'https://example.com/a[1]?a[]=1',
      'https://bücher.example/ä',
      'https://BÜCHER.example/',
      'http://8.8.8.8/',
      'http://[::ffff:8.8.8.8]/',
      'https://example.com:8443/',
      'https://example.com./',
    ])('allows the ordinary URL %s', (url) => {
      expect(destinationProblem(url, SHORT_HOST)).toBeUndefined();
    });
  });

  describe('names that lead back to the short domain', () => {
    test.each([
      ['a subdomain', 'https://www.sho.rt/'],
      ['a deeper subdomain in capitals with a trailing dot', 'https://A.B.SHO.RT./x'],
      ['a Cyrillic ѕ (U+0455) for s', 'https://ѕho.rt/'],
      ['the same look-alike in punycode', 'https://xn--ho-doc.rt/'],
      ['a Cyrillic о (U+043E) for o', 'https://shо.rt/'],
      ['a digit zero for o', 'https://sh0.rt/'],
      ['a Greek ο (U+03BF) for o', 'https://shο.rt/'],
      ['a subdomain of a look-alike', 'https://www.ѕhо.rt/'],
    ])('refuses %s: %s', (_why, url) => {
      expect(destinationProblem(url, SHORT_HOST)).toMatch(/short-link domain/);
    });

    test.each(['https://sho.rt.example.com/', 'https://notsho.rt/', 'https://shop.rt/', 'https://sho.rtx/', 'https://sho-rt.example/'])(
      'allows %s, which is neither the short domain, a subdomain of it nor a look-alike',
      (url) => {
        expect(destinationProblem(url, SHORT_HOST)).toBeUndefined();
      },
    );

    test('a local destination is refused for being local, even when the short domain is localhost (a plain install)', () => {
      expect(destinationProblem('http://localhost:8080/x', 'localhost')).toBe(
        'must not point to localhost, a private network name or a special-use name',
      );
      expect(destinationProblem('http://127.0.0.1:3000/x', '127.0.0.1')).toBe('must not point to a private, loopback or reserved address');
    });

    test('a short domain that is an IP address has no subdomains or look-alikes to refuse', () => {
      expect(destinationProblem('https://example.com/', '8.8.8.8')).toBeUndefined();
      expect(destinationProblem('http://8.8.8.8/', '8.8.8.8')).toEqual(expect.any(String));
    });
  });

  describe('special-use and internal names', () => {
    test.each([
      'foo.local',
      'api.default.svc.cluster.local',
      'printer.home.arpa',
      '1.0.0.127.in-addr.arpa',
      'x.internal',
      'kubernetes.default.svc',
      'foo.corp',
      'printer.home',
      'nas.lan',
      'webmail.mail',
      'router.private',
      'wiki.intranet',
      'box.localdomain',
      'nothing.invalid',
      'app.localhost',
      'FOO.CORP.',
    ])('refuses https://%s/', (host) => {
      expect(destinationProblem(`https://${host}/`, SHORT_HOST)).toMatch(/private|internal|special/);
    });

    test.each([
      'home.example.com',
      'mail.google.com',
      'corp.example.org',
      'local.example',
      'www.example',
      'site.test',
      'svc.example.com',
      'example.onion',
    ])('allows https://%s/', (host) => {
      expect(destinationProblem(`https://${host}/`, SHORT_HOST)).toBeUndefined();
    });
  });
});

type Quad = [number, number, number, number];

/** Every way the WHATWG URL parser accepts to write one IPv4 address as a host. */
function ipv4Spellings([a, b, c, d]: Quad): string[] {
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  const octal = (x: number) => `0${x.toString(8)}`;
  const hex = (x: number) => `0x${x.toString(16)}`;
  return [
    `${a}.${b}.${c}.${d}`,
    `${a}.${b}.${c}.${d}.`,
    String(n),
    hex(n),
    hex(n).toUpperCase().replace('0X', '0x'),
    `${octal(a)}.${octal(b)}.${octal(c)}.${octal(d)}`,
    `${hex(a)}.${hex(b)}.${hex(c)}.${hex(d)}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${a}.${b}.${(c << 8) | d}`,
    `${hex(a)}.${octal(b)}.${c}.${hex(d)}`,
  ];
}

/** IPv6 spellings that carry an IPv4 address the parser keeps (mapped ones are judged as the IPv4 inside). */
function mappedSpellings([a, b, c, d]: Quad): string[] {
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [`[::ffff:${a}.${b}.${c}.${d}]`, `[::FFFF:${high}:${low}]`, `[0:0:0:0:0:ffff:${a}.${b}.${c}.${d}]`];
}

/** IPv6 forms embedding an IPv4 address that are refused whatever the address (compatible, NAT64, 6to4). */
function embeddingSpellings([a, b, c, d]: Quad): string[] {
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  return [`[::${a}.${b}.${c}.${d}]`, `[64:ff9b::${a}.${b}.${c}.${d}]`, `[64:ff9b::${high}:${low}]`, `[2002:${high}:${low}::1]`];
}

const octet = fc.integer({ min: 0, max: 255 });
const quad = (first: fc.Arbitrary<number>, second: fc.Arbitrary<number> = octet) =>
  fc.tuple(first, second, octet, octet) as fc.Arbitrary<Quad>;

/** Addresses of every non-public IPv4 range. */
const nonPublicIpv4 = fc.oneof(
  quad(fc.constant(0)),
  quad(fc.constant(10)),
  quad(fc.constant(127)),
  quad(fc.constant(100), fc.integer({ min: 64, max: 127 })),
  quad(fc.constant(169), fc.constant(254)),
  quad(fc.constant(172), fc.integer({ min: 16, max: 31 })),
  quad(fc.constant(192), fc.constant(168)),
  quad(fc.constant(198), fc.integer({ min: 18, max: 19 })),
  quad(fc.integer({ min: 224, max: 255 })),
);

/** A way of writing the URL around the host: scheme case, userinfo tricks, port, path. */
const wrapping = fc.record({
  scheme: fc.constantFrom('http', 'https', 'HTTP', 'HtTpS'),
  userinfo: fc.constantFrom('', 'good.example@', 'user:pass@', 'sho.rt@'),
  port: fc.constantFrom('', ':80', ':443', ':8080'),
  path: fc.constantFrom('/', '/admin', '/?next=https://example.com/', '#frag'),
});

const url = (host: string, w: { scheme: string; userinfo: string; port: string; path: string }) =>
  `${w.scheme}://${w.userinfo}${host}${w.port}${w.path}`;

describe('destinationProblem over generated addresses', () => {
  test('refuses every spelling of every non-public IPv4 address, plain or inside IPv6, with any userinfo, port or case', () => {
    fc.assert(
      fc.property(nonPublicIpv4, wrapping, (address, w) => {
        for (const host of [...ipv4Spellings(address), ...mappedSpellings(address), ...embeddingSpellings(address)]) {
          expect(destinationProblem(url(host, w), SHORT_HOST), url(host, w)).toEqual(expect.any(String));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('allows a public IPv4 address as four decimal numbers or mapped into IPv6, refuses every other spelling and the IPv6 embeddings of it', () => {
    const publicIpv4 = fc.constantFrom([8, 8, 8, 8], [1, 1, 1, 1], [93, 184, 216, 34], [151, 101, 1, 69]) as fc.Arbitrary<Quad>;
    fc.assert(
      fc.property(publicIpv4, wrapping, (address, w) => {
        const [dotted, ...otherSpellings] = ipv4Spellings(address);
        for (const host of [dotted as string, ...mappedSpellings(address)]) {
          const problem = destinationProblem(url(host, w), SHORT_HOST);
          // Userinfo is refused on its own, whatever the host.
          if (w.userinfo === '') expect(problem, url(host, w)).toBeUndefined();
          else expect(problem, url(host, w)).toEqual(expect.any(String));
        }
        // RFC 3986 clients read `0x08080808` or `8.8.8.8.` as a name, browsers as the address:
        // refused, and the message shows the dotted form browsers use.
        for (const host of otherSpellings) {
          const problem = destinationProblem(url(host, w), SHORT_HOST);
          expect(problem, url(host, w)).toEqual(expect.any(String));
          if (w.userinfo === '') expect(problem, url(host, w)).toContain(`//${address.join('.')}`);
        }
        for (const host of embeddingSpellings(address)) expect(destinationProblem(url(host, w), SHORT_HOST)).toEqual(expect.any(String));
      }),
      { numRuns: 100 },
    );
  });

  test('refuses the short domain in any letter case, with trailing dots and any port', () => {
    const casing = fc.array(fc.boolean(), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(casing, fc.constantFrom('', '.', '..'), wrapping, (upper, dots, w) => {
        const host = [...SHORT_HOST].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join('') + dots;
        expect(destinationProblem(url(host, { ...w, userinfo: '' }), SHORT_HOST)).toEqual(expect.any(String));
      }),
      { numRuns: 100 },
    );
  });
});
