// @vitest-environment happy-dom
import type { ShortlinksClient } from '@shortlinks/client';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { sampleLink } from '../testing/sample-link.ts';
import { LinkRow } from './LinkRow.tsx';

const link = sampleLink({ click_count: 3 });

afterEach(cleanup);

/** Renders the row below a provider whose clipboard is `copyText`. */
const renderRow = (copyText: (text: string) => Promise<boolean>) =>
  render(
    <ShortlinksProvider client={{} as ShortlinksClient} copyText={copyText}>
      <LinkRow link={link} tags={[]} onChanged={() => undefined} />
    </ShortlinksProvider>,
  );

describe('LinkRow', () => {
  test('Copy goes through the host’s copyText and then says Copied', async () => {
    const asked: string[] = [];
    renderRow(async (text) => {
      asked.push(text);
      return true;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Copy https://sho.rt/abc123' }));
    expect(await screen.findByText('Copied')).toBeTruthy();
    expect(asked).toEqual(['https://sho.rt/abc123']);
  });

  test('a copy the host could not make is not reported as copied', async () => {
    let finish: (copied: boolean) => void = () => undefined;
    renderRow(() => new Promise((resolve) => (finish = resolve)));
    fireEvent.click(screen.getByRole('button', { name: 'Copy https://sho.rt/abc123' }));
    await act(async () => finish(false));
    expect(screen.getByRole('button', { name: 'Copy https://sho.rt/abc123' }).textContent).toBe('Copy');
  });

  test('a Statistics link leads where the host keeps the link’s statistics, only when it says where', () => {
    const { unmount } = render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={link} tags={[]} onChanged={() => undefined} statisticsHref={(shown) => `#/links/${shown.id}`} />
      </ShortlinksProvider>,
    );
    expect(screen.getByRole('link', { name: 'Statistics of Read me' }).getAttribute('href')).toBe('#/links/lnk_1');
    unmount();
    renderRow(async () => true);
    expect(screen.queryByRole('link', { name: /Statistics/ })).toBeNull();
  });

  test('short URL and destination are links that open in a new tab', () => {
    renderRow(async () => true);
    const short = screen.getByRole('link', { name: 'sho.rt/abc123' });
    expect(short.getAttribute('href')).toBe('https://sho.rt/abc123');
    expect(short.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'https://example.com/read' }).getAttribute('href')).toBe('https://example.com/read');
  });

  test('an expired link is marked Expired, with the date and time it expired; where visits go is its title', () => {
    const expiresAt = new Date(2026, 2, 12, 14, 30).getTime();
    const expiring = { ...link, expires_at: expiresAt, expiration_url: 'https://example.com/over' };
    const { unmount } = render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={expiring} tags={[]} onChanged={() => undefined} now={() => expiresAt - 60_000} />
      </ShortlinksProvider>,
    );
    expect(screen.queryByText('Expired')).toBeNull();
    const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(expiresAt);
    expect(screen.getByText(`Expires ${when}`)).toBeTruthy();
    unmount();
    render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={expiring} tags={[]} onChanged={() => undefined} now={() => expiresAt} />
      </ShortlinksProvider>,
    );
    expect(screen.getByText('Expired')).toBeTruthy();
    expect(screen.getByText(`Expired ${when}`).getAttribute('title')).toMatch(/^Visits now go to example\.com\. Created /);
    expect(screen.getByTestId('link-row').className).toContain('expired');
  });
});

describe('LinkRow, in the dashboard', () => {
  const tagged = sampleLink({ tags: [{ id: 'tag_w', name: 'Work', color: 'indigo' }] });

  test('a tag chip leads to the list filtered by that tag, when the host says where that is', () => {
    const { unmount } = render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={tagged} tags={[]} onChanged={() => undefined} tagHref={(tag) => `/app?tag=${tag.id}`} />
      </ShortlinksProvider>,
    );
    expect(screen.getByRole('link', { name: 'Links tagged Work' }).getAttribute('href')).toBe('/app?tag=tag_w');
    unmount();
    render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={tagged} tags={[]} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    expect(screen.getByText('Work').tagName).toBe('SPAN');
  });

  test('a row has a tick box named after its link only when the host offers bulk actions', () => {
    const ticked: boolean[] = [];
    const { unmount } = render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <LinkRow link={tagged} tags={[]} onChanged={() => undefined} selected={false} onSelect={(value) => ticked.push(value)} />
      </ShortlinksProvider>,
    );
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Read me' }));
    expect(ticked).toEqual([true]);
    unmount();
    renderRow(async () => true);
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
