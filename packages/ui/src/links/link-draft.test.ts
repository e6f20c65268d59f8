import type { Link } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { createOf, draftOf, draftProblem, fromDateTimeLocal, isUnchanged, toDateTimeLocal, updateOf, withoutUtm } from './link-draft.ts';

const link: Link = {
  id: 'lnk_1',
  short_url: 'https://sho.rt/abc123',
  destination_url: 'https://example.com/page?ref=1&utm_source=news&utm_campaign=spring',
  title: 'Spring',
  slug: 'abc123',
  tags: [{ id: 'tag_1', name: 'Campaigns', color: 'indigo' }],
  click_count: 4,
  created_at: 1_700_000_000_000,
};

describe('draftOf', () => {
  test('reads UTM values back out of the destination', () => {
    const draft = draftOf(link);
    expect(draft.utm).toEqual({ source: 'news', medium: '', campaign: 'spring', content: '', term: '' });
    expect(draft.tags).toEqual(['Campaigns']);
    expect(draft.expiresAt).toBe('');
  });
});

describe('updateOf', () => {
  test('an untouched draft changes nothing', () => {
    expect(isUnchanged(updateOf(link, draftOf(link)))).toBe(true);
  });

  test('sends only the fields that changed; tags as names, case changes ignored', () => {
    const draft = { ...draftOf(link), title: 'Spring sale', tags: ['campaigns', 'Email'] };
    expect(updateOf(link, draft)).toEqual({ id: 'lnk_1', title: 'Spring sale', tag_names: ['campaigns', 'Email'] });
    expect(updateOf(link, { ...draftOf(link), tags: ['CAMPAIGNS'] })).toEqual({ id: 'lnk_1' });
  });

  test('a UTM change re-sends the destination without its utm_ parameters, so a cleared value is removed', () => {
    const draft = draftOf(link);
    const update = updateOf(link, { ...draft, utm: { ...draft.utm, campaign: '', medium: 'email' } });
    expect(update).toEqual({ id: 'lnk_1', destination_url: 'https://example.com/page?ref=1', utm: { source: 'news', medium: 'email' } });
  });

  test('clearing the expiry sends null (which removes the fallback too); clearing comments sends null', () => {
    const expiring: Link = { ...link, expires_at: Date.now() + 86_400_000, expiration_url: 'https://example.com/over', comments: 'note' };
    const update = updateOf(expiring, { ...draftOf(expiring), expiresAt: '', expirationUrl: '', comments: '  ' });
    expect(update).toEqual({ id: 'lnk_1', expires_at: null, comments: null });
  });

  test('a new expiry with a fallback sends both', () => {
    const update = updateOf(link, { ...draftOf(link), expiresAt: '2030-01-02T03:04', expirationUrl: ' https://example.com/over ' });
    expect(update).toMatchObject({ expires_at: fromDateTimeLocal('2030-01-02T03:04'), expiration_url: 'https://example.com/over' });
  });
});

describe('createOf and draftProblem', () => {
  test('a fresh link with its own slug is created with every field the draft holds', () => {
    const draft = { ...draftOf(link), slug: ' spring ', comments: 'hi' };
    expect(createOf(link, draft)).toEqual({
      title: 'Spring',
      destination_url: 'https://example.com/page?ref=1',
      slug: 'spring',
      utm: { source: 'news', campaign: 'spring' },
      tag_names: ['Campaigns'],
      comments: 'hi',
    });
  });

  test('an expiry left as it was keeps its exact instant; a changed one is read from the form', () => {
    const expiring: Link = {
      ...link,
      expires_at: fromDateTimeLocal('2031-05-06T07:08') + 42_123,
      expiration_url: 'https://example.com/over',
    };
    const draft = { ...draftOf(expiring), slug: 'spring' };
    expect(createOf(expiring, draft)).toMatchObject({ expires_at: expiring.expires_at, expiration_url: 'https://example.com/over' });
    expect(createOf(expiring, { ...draft, expiresAt: '2031-05-06T08:00' }).expires_at).toBe(fromDateTimeLocal('2031-05-06T08:00'));
  });

  test('a fallback without an expiry is refused before anything is sent', () => {
    expect(draftProblem({ ...draftOf(link), expirationUrl: 'https://example.com/over' })).toEqual({
      field: 'expiration_url',
      message: expect.stringContaining('needs an expiry'),
    });
    expect(draftProblem(draftOf(link))).toBeUndefined();
  });
});

describe('dates and URLs', () => {
  test('datetime-local values round-trip to the minute', () => {
    const ms = fromDateTimeLocal('2031-05-06T07:08');
    expect(toDateTimeLocal(ms)).toBe('2031-05-06T07:08');
  });

  test('withoutUtm keeps a URL without utm_ parameters exactly as it is', () => {
    expect(withoutUtm('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(withoutUtm('https://example.com/a?utm_term=x#c')).toBe('https://example.com/a#c');
  });
});
