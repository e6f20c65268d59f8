import type { RedirectRule } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { acceptedLanguages, compileRules, type RuleVisit, ruleDestination } from './redirect-rules.ts';

const visit = (extra: Partial<RuleVisit> = {}): RuleVisit => ({
  now: 1_800_000_000_000,
  agent: { device: 'desktop', browser: 'Firefox', os: 'Windows' },
  country: null,
  acceptLanguage: undefined,
  query: '',
  ...extra,
});
const to = (name: string) => `https://example.com/${name}`;
const rules = (...list: [RedirectRule['if'], string][]) =>
  compileRules(list.map(([when, name]) => ({ if: when, destination_url: to(name) })));

describe('Accept-Language', () => {
  test('languages refused with q=0 (any spelling of zero) and the wildcard are left out; case is ignored', () => {
    expect(acceptedLanguages('fr-CA, fr;q=0.9, EN;Q=0.5, de;q=0, it;q=0.000, *;q=0.1, es ; q=0.0, pt;level=1;q=0.2')).toEqual([
      'fr-ca',
      'fr',
      'en',
      'pt',
    ]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages('')).toEqual([]);
    // A weight that is not a number refuses too: nothing says the visitor accepts it.
    expect(acceptedLanguages('nl;q=abc')).toEqual([]);
  });
});

describe('compiled rules', () => {
  test('each condition, names without regard to case; a range matches its subtags only', () => {
    const compiled = rules(
      [{ os: 'WINDOWS', browser: 'firefox' }, 'firefox-windows'],
      [{ language: 'fr' }, 'fr'],
      [{ query: { a: '1', b: '2' } }, 'query'],
    );
    expect(ruleDestination(compiled, visit())).toBe(to('firefox-windows'));
    const chrome = { agent: { device: 'desktop' as const, browser: 'Chrome', os: 'Windows' } };
    expect(ruleDestination(compiled, visit({ ...chrome, acceptLanguage: 'fr-CA' }))).toBe(to('fr'));
    expect(ruleDestination(compiled, visit({ ...chrome, acceptLanguage: 'fra, frisian' }))).toBeUndefined();
    expect(ruleDestination(compiled, visit({ ...chrome, query: 'b=2&a=0&a=1' }))).toBe(to('query'));
    expect(ruleDestination(compiled, visit({ ...chrome, query: 'a=1' }))).toBeUndefined();
  });

  test('after is inclusive, before exclusive; the first rule that holds wins; an unknown OS or browser matches no name', () => {
    const now = 1_800_000_000_000;
    const compiled = rules([{ after: now, before: now + 1 }, 'window'], [{ os: 'iOS' }, 'ios'], [{ device: 'desktop' }, 'desktop']);
    expect(ruleDestination(compiled, visit({ now }))).toBe(to('window'));
    expect(ruleDestination(compiled, visit({ now: now + 1 }))).toBe(to('desktop'));
    expect(ruleDestination(compiled, visit({ now: now - 1, agent: { device: 'mobile', browser: null, os: null } }))).toBeUndefined();
    expect(compiled.readsCountry).toBe(false);
    expect(rules([{ country: 'DE' }, 'de']).readsCountry).toBe(true);
  });
});
