import type { Link } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import {
  createOf,
  draftOf,
  draftProblem,
  EMPTY_DRAFT,
  errorAfterChange,
  fromDateTimeLocal,
  isUnchanged,
  toDateTimeLocal,
  updateOf,
  withoutUtm,
} from './link-draft.ts';

const link: Link = {
  id: 'lnk_1',
  domain: 'sho.rt',
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

  test('shows the destination without its utm_ parameters, which are in the UTM fields', () => {
    expect(draftOf(link).destination).toBe('https://example.com/page?ref=1');
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

  test('a new destination is sent with the UTM values, which the API merges only into a destination sent with them', () => {
    const update = updateOf(link, { ...draftOf(link), destination: 'https://example.com/fixed' });
    expect(update).toEqual({ id: 'lnk_1', destination_url: 'https://example.com/fixed', utm: { source: 'news', campaign: 'spring' } });
  });

  test('a destination typed without a scheme is sent with https://', () => {
    const update = updateOf(link, {
      ...draftOf(link),
      destination: 'example.com/x',
      utm: { ...draftOf(link).utm, source: '', campaign: '' },
    });
    expect(update).toEqual({ id: 'lnk_1', destination_url: 'https://example.com/x' });
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
  test('a new link sends only what was filled in, trimmed, with UTM and expiry', () => {
    expect(createOf(undefined, { ...EMPTY_DRAFT, destination: ' example.com/a ', title: 'A' })).toEqual({
      title: 'A',
      destination_url: 'https://example.com/a',
    });
    expect(
      createOf(undefined, {
        ...EMPTY_DRAFT,
        destination: 'https://example.com/a',
        title: ' Launch ',
        utm: { ...EMPTY_DRAFT.utm, source: ' news ' },
        expiresAt: '2031-05-06T07:08',
        expirationUrl: 'example.com/over',
      }),
    ).toEqual({
      title: 'Launch',
      destination_url: 'https://example.com/a',
      utm: { source: 'news' },
      expires_at: fromDateTimeLocal('2031-05-06T07:08'),
      expiration_url: 'https://example.com/over',
    });
  });

  test('an empty destination is refused at its field before anything is sent', () => {
    expect(draftProblem({ ...draftOf(link), destination: ' ' })).toEqual({
      field: 'destination_url',
      message: 'Enter the address the short link leads to.',
    });
  });

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

describe('errorAfterChange', () => {
  test('an error clears when its field is changed, and stays when another one is', () => {
    const slugTaken = { field: 'slug', message: 'Taken' } as const;
    expect(errorAfterChange(slugTaken, { slug: 'spring-2' })).toBeUndefined();
    expect(errorAfterChange(slugTaken, { title: 'Spring' })).toBe(slugTaken);
    const needsExpiry = { field: 'expiration_url', message: 'Needs an expiry' } as const;
    expect(errorAfterChange(needsExpiry, { expiresAt: '2031-05-06T07:08' })).toBeUndefined();
    const refused = { field: 'destination_url', message: 'Refused' } as const;
    expect(errorAfterChange(refused, { destination: 'https://example.com/' })).toBeUndefined();
    const whole = { field: 'form', message: 'Unreachable' } as const;
    expect(errorAfterChange(whole, { title: 'x' })).toBe(whole);
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
