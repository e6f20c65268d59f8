// @vitest-environment happy-dom
import { type Link, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, onTestFinished, test } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { sampleLink } from '../testing/sample-link.ts';
import { LinksView } from './LinksView.tsx';

/** A client for an account holding `links`, as the server pages them. */
const accountWith = (links: Link[]) =>
  ({
    links: { list: async () => ({ links, total: links.length, page: 1, per_page: 20, link_limit: 1_000 }) },
  }) as unknown as ShortlinksClient;

const sample = sampleLink();

afterEach(cleanup);

describe('LinksView', () => {
  test('an account without links shows the host’s hint for making the first one', async () => {
    render(
      <ShortlinksProvider client={accountWith([])}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} emptyHint="No links yet. Shorten a page to start." />
      </ShortlinksProvider>,
    );
    expect(await screen.findByText('No links yet. Shorten a page to start.')).toBeTruthy();
  });

  test('a search that finds nothing says so, not the hint', async () => {
    render(
      <ShortlinksProvider client={accountWith([])}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} emptyHint="No links yet. Shorten a page to start." />
      </ShortlinksProvider>,
    );
    fireEvent.change(screen.getByLabelText('Search links'), { target: { value: 'spring' } });
    expect(await screen.findByText('No links match.')).toBeTruthy();
    expect(screen.queryByText('No links yet. Shorten a page to start.')).toBeNull();
  });

  test('a failed load says why and offers Try again, which loads anew', async () => {
    let calls = 0;
    const client = {
      links: {
        list: async () => {
          calls += 1;
          if (calls === 1) throw new ShortlinksError('NETWORK_ERROR', 'fetch failed', 0);
          return { links: [], total: 0, page: 1, per_page: 20, link_limit: 1_000 };
        },
      },
    } as unknown as ShortlinksClient;
    render(
      <ShortlinksProvider client={client} messages={{ unreachable: 'Offline: check the server address.' }}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} emptyHint="No links yet." />
      </ShortlinksProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Offline: check the server address.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No links yet.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('Next brings the top of the list into view, with the focus, once the page is shown', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...sample, id: `lnk_${i}`, slug: `s${i}`, title: `Link ${i}` }));
    const client = {
      links: {
        list: async ({ page = 1 }: { page?: number }) => ({
          links: many.slice((page - 1) * 20, page * 20),
          total: many.length,
          page,
          per_page: 20,
          link_limit: 1_000,
        }),
      },
    } as unknown as ShortlinksClient;
    render(
      <ShortlinksProvider client={client}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    await screen.findByText('Link 0');
    const scrolled: Element[] = [];
    const scrollIntoView = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    onTestFinished(() => {
      Element.prototype.scrollIntoView = scrollIntoView;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Link 20');
    const list = screen.getByRole('region', { name: 'Links' });
    await waitFor(() => expect(document.activeElement).toBe(list));
    expect(scrolled).toEqual([list]);
    expect(screen.getAllByRole('status')[0]?.textContent).toBe('25 links · page 2 of 2');
  });

  test('a search, the tag filter and the order are asked of the server, from page 1, in one request', async () => {
    const asked: unknown[] = [];
    const client = {
      links: {
        list: async (query: unknown) => {
          asked.push(query);
          return { links: [], total: 0, page: 1, per_page: 20, link_limit: 1_000 };
        },
      },
    } as unknown as ShortlinksClient;
    render(
      <ShortlinksProvider client={client}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    await waitFor(() => expect(asked).toEqual([{ page: 1, per_page: 20 }]));
    fireEvent.change(screen.getByLabelText('Sort links'), { target: { value: 'most-clicked' } });
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 1, per_page: 20, sort: 'click_count', order: 'desc' }));
    fireEvent.change(screen.getByLabelText('Search links'), { target: { value: ' 100% off ' } });
    await waitFor(() => expect(asked.at(-1)).toEqual({ page: 1, per_page: 20, search: '100% off', sort: 'click_count', order: 'desc' }));
  });

  test('typing fast asks once, for the whole search, not for every key', async () => {
    const searches: unknown[] = [];
    const client = {
      links: {
        list: async (query: { search?: string }) => {
          searches.push(query.search);
          return { links: [], total: 0, page: 1, per_page: 20, link_limit: 1_000 };
        },
      },
    } as unknown as ShortlinksClient;
    render(
      <ShortlinksProvider client={client}>
        <LinksView tags={[]} version={0} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    await waitFor(() => expect(searches).toEqual([undefined]));
    // A key every 60 ms, as people type.
    for (const typed of ['s', 'sp', 'spr', 'spri', 'sprin', 'spring']) {
      fireEvent.change(screen.getByLabelText('Search links'), { target: { value: typed } });
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await waitFor(() => expect(searches).toEqual([undefined, 'spring']));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(searches).toEqual([undefined, 'spring']);
  });

  test('a host that keeps the view (the dashboard’s address) is asked for every change, and typing on replaces', async () => {
    const asked: unknown[] = [];
    const client = {
      links: {
        list: async (query: unknown) => {
          asked.push(query);
          return { links: [], total: 0, page: 3, per_page: 20, link_limit: 1_000 };
        },
      },
    } as unknown as ShortlinksClient;
    const changes: [unknown, boolean][] = [];
    const view = { search: 'spr', tagId: 'tag_w', domain: '', order: 'title-az' as const, page: 3 };
    render(
      <ShortlinksProvider client={client}>
        <LinksView
          tags={[]}
          version={0}
          onChanged={() => undefined}
          view={view}
          onViewChange={(next, { replace }) => changes.push([next, replace])}
        />
      </ShortlinksProvider>,
    );
    await waitFor(() =>
      expect(asked[0]).toEqual({ page: 3, per_page: 20, search: 'spr', tag_ids: ['tag_w'], sort: 'title', order: 'asc' }),
    );
    expect((screen.getByLabelText('Search links') as HTMLInputElement).value).toBe('spr');
    fireEvent.change(screen.getByLabelText('Search links'), { target: { value: 'spri' } });
    fireEvent.change(screen.getByLabelText('Sort links'), { target: { value: 'most-clicked' } });
    expect(changes).toEqual([
      [{ ...view, search: 'spri', page: 1 }, true],
      [{ ...view, order: 'most-clicked', page: 1 }, false],
    ]);
  });
});
