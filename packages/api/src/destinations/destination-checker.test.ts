import { destinationUrlField } from '@shortlinks/contract';
import fc from 'fast-check';
import fastUri from 'fast-uri';
import ipaddr from 'ipaddr.js';
import { describe, expect, test } from 'vitest';
import { AppError } from '../errors.ts';
import { DestinationChecker } from './destination-checker.ts';
import { destinationProblem } from './destination-policy.ts';
import type { Utm } from './utm.ts';

const SHORT_HOST = 'sho.rt';
/** No reputation verdicts here: this is about what the host rules let through. */
const checker = new DestinationChecker(SHORT_HOST, { check: async () => ({ flagged: false }) });

/**
 * What the API stores for a destination as a client sent it, or undefined when it is refused: the
 * request schema, then the same checker the link service calls.
 */
async function stored(raw: string, utm: Utm | undefined): Promise<string | undefined> {
  const parsed = destinationUrlField.safeParse(raw);
  if (!parsed.success) return undefined;
  try {
    return await checker.finalDestination('destination_url', parsed.data, utm);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') return undefined;
    throw error;
  }
}

/**
 * RFC 3986 Appendix B, the standard's own reading of a URI reference, with the authority split
 * as section 3.2 says. An oracle independent of both libraries the checker uses.
 */
function appendixB(uri: string): { authority: string; host: string } | undefined {
  const match = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?/.exec(uri);
  const authority = match?.[4];
  if (authority === undefined) return undefined;
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostAndPort.startsWith('[') ? hostAndPort.slice(0, hostAndPort.indexOf(']') + 1) : hostAndPort.replace(/:\d*$/, '');
  return { authority, host };
}

/** A host as one reading gives it, comparable across readings: lower case, IPv6 in one spelling. */
function comparable(host: string): string {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return ipaddr.IPv6.isValid(bare) && bare.includes(':') ? `[${ipaddr.parse(bare).toNormalizedString()}]` : bare.toLowerCase();
}

/** The property of the issue: browsers and RFC 3986 clients reach the same, acceptable host. */
function expectOneReading(url: string) {
  const whatwg = new URL(url);
  const rfc = fastUri.parse(url, { scheme: 'x-rfc3986' });
  const oracle = appendixB(url);
  expect(oracle, url).toBeDefined();
  if (!oracle) return;
  // No userinfo in any reading: no "@" in the authority at all.
  expect([whatwg.username, whatwg.password, rfc.userinfo, oracle.authority.includes('@')], url).toEqual(['', '', undefined, false]);
  expect(oracle.authority, url).not.toMatch(/[\\%]/);
  expect(comparable(rfc.host ?? ''), url).toBe(comparable(whatwg.hostname));
  expect(comparable(oracle.host), url).toBe(comparable(whatwg.hostname));
  // The host RFC 3986 clients connect to passes the policy on its own.
  expect(destinationProblem(`http://${oracle.host}/`, SHORT_HOST), url).toBeUndefined();
}

const ipv4Public = fc.constantFrom<[number, number, number, number]>([8, 8, 8, 8], [1, 1, 1, 1], [93, 184, 216, 34]);
const ipv4Private = fc.constantFrom<[number, number, number, number]>(
  [127, 0, 0, 1],
  [10, 0, 0, 1],
  [169, 254, 169, 254],
  [192, 168, 1, 1],
);

/** Every way the WHATWG parser accepts to write an IPv4 address (and a few it refuses). */
const ipv4Spelling = ([a, b, c, d]: [number, number, number, number]) => {
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  return fc.constantFrom(
    `${a}.${b}.${c}.${d}`,
    `${a}.${b}.${c}.${d}.`,
    String(n),
    `0x${n.toString(16)}`,
    `0${a.toString(8)}.0${b.toString(8)}.${c}.${d}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `0${a}.${b}.${c}.${d}`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `%3${String(a)[0]}${String(a).slice(1)}.${b}.${c}.${d}`,
  );
};

const host = fc.oneof(
  { arbitrary: fc.constantFrom('example.com', 'sub.example.org', 'EXAMPLE.com', 'bücher.example'), weight: 3 },
  fc.constantFrom(
    'example.com',
    'EXAMPLE.com',
    'sub.example.org',
    'example.com.',
    'bücher.example',
    'xn--bcher-kva.example',
    'ｅｘａｍｐｌｅ.com',
    'exa%6Dple.com',
    'sho.rt',
    'www.sho.rt',
    'ѕho.rt',
    'localhost',
    'printer.local',
    'x.internal',
    'kubernetes.default.svc',
    '[2001:4860:4860::8888]',
    '[::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
  ),
  ipv4Public.chain(ipv4Spelling),
  ipv4Private.chain(ipv4Spelling),
);

/** Mostly an ordinary piece, sometimes one of the tricky ones. */
const mostly = (ordinary: string[], tricky: string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...ordinary), weight: 3 }, { arbitrary: fc.constantFrom(...tricky), weight: 1 });

const piece = {
  scheme: fc.constantFrom('http', 'https', 'HTTP', 'hTTpS'),
  slashes: mostly(['//'], ['///', '//\\', '/\\', '////']),
  userinfo: mostly(
    [''],
    [
      'user@',
      'user:pass@',
      '@',
      ':@',
      'a%40b@',
      'good.example\\@',
      'good.example%5C@',
      'good.example\\',
      'x\\y@',
      'a@b@',
      'example.com\\@',
    ],
  ),
  port: mostly(['', ':8443'], [':80', ':443', ':', ':0080']),
  path: mostly(['', '/', '/page', '/a/../b', '/ä', '//x'], ['/a\\b', '\\', '\\@127.0.0.1/', '/%2e%2e/x', '/@127.0.0.1']),
  query: mostly(['', '?x=1', '?a=50%'], ['?next=http://127.0.0.1/', '?q=a\\b', '?@x']),
  fragment: mostly(['', '#f'], ['#@127.0.0.1', '#\\x']),
};

const builtUrl = fc
  .record({ ...piece, host })
  .map((p) => `${p.scheme}:${p.slashes}${p.userinfo}${p.host}${p.port}${p.path}${p.query}${p.fragment}`);

/** Authorities from the characters that decide where a host starts and ends. */
const chaoticUrl = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'http:///', 'https:/\\'),
    fc.array(
      fc.constantFrom(
        'a',
        'example.com',
        '.',
        '/',
        '\\',
        '@',
        ':',
        '%',
        '40',
        '5C',
        '8.8.8.8',
        '127.0.0.1',
        '[',
        ']',
        '?',
        '#',
        '0x7f',
        '1',
      ),
      {
        minLength: 1,
        maxLength: 8,
      },
    ),
  )
  .map(([start, parts]) => start + parts.join(''));

const utm = fc.option(fc.constantFrom<Utm>({ source: 'mail' }, { campaign: 'spring', term: 'a b' }), { nil: undefined });

describe('whatever the API stores, browsers and RFC 3986 clients read the same host, without userinfo, and that host passes the policy', () => {
  test('over URLs built from the pieces that parsers disagree on (scheme case, slashes, userinfo, every IPv4 spelling, IDN, ports, paths)', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(builtUrl, utm, async (raw, extra) => {
        const url = await stored(raw, extra);
        if (url === undefined) return;
        accepted += 1;
        expectOneReading(url);
      }),
      { numRuns: 4000 },
    );
    // Not vacuous: ordinary URLs are among the generated ones and must get through.
    expect(accepted).toBeGreaterThan(200);
  });

  test('over chaotic authorities made of delimiters', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(chaoticUrl, utm, async (raw, extra) => {
        const url = await stored(raw, extra);
        if (url === undefined) return;
        accepted += 1;
        expectOneReading(url);
      }),
      { numRuns: 4000 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  test("the issue's URL, with or without utm, is refused, and an ordinary one is stored exactly as sent", async () => {
    expect(await stored('http://attacker.example\\@127.0.0.1:18999/admin', undefined)).toBeUndefined();
    expect(await stored('http://attacker.example\\@127.0.0.1:18999/admin', { source: 'mail' })).toBeUndefined();
    expect(await stored('https://example.com/page?x=1', undefined)).toBe('https://example.com/page?x=1');
    expect(await stored('https://example.com', undefined)).toBe('https://example.com');
  });
});
