import type { Link } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { conditionsOf, conditionsText, smartCreateOf, smartDraftOf, smartProblem, smartUpdateOf } from './smart-draft.ts';

const link: Link = {
  id: 'lnk_1',
  short_url: 'https://sho.rt/a',
  destination_url: 'https://example.com/',
  title: 'A',
  slug: 'a',
  tags: [],
  click_count: 0,
  created_at: 0,
  password_protected: true,
  max_clicks: 5,
  rules: [
    {
      if: { device: 'mobile', country: 'DE', query: { src: 'qr' }, after: Date.UTC(2026, 11, 1) },
      destination_url: 'https://example.com/m',
    },
  ],
  preview: { title: 'T' },
};

describe('the smart fields of the link form', () => {
  test('a rule’s conditions read back as they were written, every kind', () => {
    const text = conditionsText(link.rules?.[0]?.if ?? {});
    expect(text).toBe('device=mobile, country=DE, query.src=qr, after=2026-12-01T00:00:00.000Z');
    expect(conditionsOf(text)).toEqual(link.rules?.[0]?.if);
    expect(conditionsOf('language=fr, before=1800000000000')).toEqual({ language: 'fr', before: 1_800_000_000_000 });
  });

  test('what the form can tell is wrong is said at its field', () => {
    expect(conditionsOf('city=Berlin')).toMatch(/not a condition/);
    expect(conditionsOf('')).toMatch(/at least one condition/);
    expect(smartProblem({ ...smartDraftOf(link), maxClicks: 'ten' })).toEqual({
      field: 'max_clicks',
      message: 'The click limit must be a whole number.',
    });
    expect(smartProblem({ ...smartDraftOf(link), rules: [{ conditions: 'device=mobile', destination: '' }] })?.field).toBe('rules');
  });

  test('an untouched link sends nothing; removing sends null; a new link sends only what is filled in', () => {
    const draft = smartDraftOf(link);
    expect(smartUpdateOf(link, draft)).toEqual({});
    expect(smartUpdateOf(link, { ...draft, removePassword: true, maxClicks: '', rules: [], previewTitle: '' })).toEqual({
      password: null,
      max_clicks: null,
      rules: null,
      preview: null,
    });
    expect(smartCreateOf({ ...draft, password: 'secret', previewTitle: '' })).toEqual({
      password: 'secret',
      max_clicks: 5,
      rules: link.rules,
    });
  });
});
