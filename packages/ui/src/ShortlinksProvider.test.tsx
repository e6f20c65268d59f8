// @vitest-environment happy-dom
import type { ShortlinksClient } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { LinkRow } from './links/LinkRow.tsx';
import { ShortlinksProvider } from './ShortlinksProvider.tsx';
import { sampleLink } from './testing/sample-link.ts';

const link = sampleLink({ click_count: 3 });

/** A client for an account without links. */
const emptyAccount = {
  links: { list: async () => ({ links: [], total: 0, page: 1, per_page: 20, link_limit: 1_000 }) },
} as unknown as ShortlinksClient;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('ShortlinksProvider', () => {
  test('a component outside a provider says which provider it needs', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<LinkRow link={link} tags={[]} onChanged={() => undefined} />)).toThrow(
      'useShortlinks() needs a <ShortlinksProvider client={…}> above this component.',
    );
  });

  test('without a copyText of its own, copying writes to the Clipboard API', async () => {
    render(
      <ShortlinksProvider client={emptyAccount}>
        <LinkRow link={link} tags={[]} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy https://sho.rt/abc123' }));
    expect(await screen.findByText('Copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe('https://sho.rt/abc123');
  });
});
