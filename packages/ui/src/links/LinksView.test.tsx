// @vitest-environment happy-dom
import type { Link, ShortlinksClient } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { LinksView } from './LinksView.tsx';

/** A client for an account holding `links`, as the server pages them. */
const accountWith = (links: Link[]) =>
  ({
    links: { list: async () => ({ links, total: links.length, page: 1, per_page: 20, link_limit: 1_000 }) },
  }) as unknown as ShortlinksClient;

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
});
