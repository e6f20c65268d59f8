// @vitest-environment happy-dom
import { type Link, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { LinkForm } from './LinkForm.tsx';

const link: Link = {
  id: 'lnk_1',
  short_url: 'https://sho.rt/abc123',
  destination_url: 'https://example.com/read',
  title: 'Read me',
  slug: 'abc123',
  tags: [],
  click_count: 0,
  created_at: 0,
};

/** A client whose every call fails with `error`, recording what was asked. */
function failingClient(error: ShortlinksError) {
  const calls: unknown[] = [];
  const fail = async (input: unknown) => {
    calls.push(input);
    throw error;
  };
  const client = { links: { create: fail, update: fail, delete: fail } } as unknown as ShortlinksClient;
  return { client, calls };
}

/** Renders `ui` as an app does: below a provider that holds the client. */
const renderWith = (client: ShortlinksClient, ui: ReactNode) => render(<ShortlinksProvider client={client}>{ui}</ShortlinksProvider>);

afterEach(cleanup);

describe('LinkForm', () => {
  test('a taken slug is shown under the slug box and marks it invalid', async () => {
    const { client, calls } = failingClient(new ShortlinksError('SLUG_TAKEN', 'slug is taken', 409, 'slug'));
    renderWith(client, <LinkForm link={link} fresh tags={[]} onSaved={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'spring' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('This slug is already taken. Choose another one.');
    expect(message.id).toBe(screen.getByLabelText('Slug').getAttribute('aria-describedby'));
    expect(screen.getByLabelText('Slug').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([expect.objectContaining({ slug: 'spring', destination_url: link.destination_url })]);
  });

  test('the slug of an existing link is read-only', () => {
    const { client } = failingClient(new ShortlinksError('INTERNAL_ERROR', 'x', 500));
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    expect(screen.getByLabelText('Slug').hasAttribute('readonly')).toBe(true);
  });

  test('a fallback address without an expiry is refused at its field without a request', async () => {
    const { client, calls } = failingClient(new ShortlinksError('INTERNAL_ERROR', 'x', 500));
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Then redirect to'), { target: { value: 'https://example.com/over' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/needs an expiry/);
    expect(calls).toEqual([]);
  });

  test('tags are picked from the account’s tags or typed, and sent as names', async () => {
    const saved: unknown[] = [];
    const client = {
      links: {
        update: async (input: unknown) => {
          saved.push(input);
          return { ...link, tags: [] };
        },
      },
    } as unknown as ShortlinksClient;
    const onSaved = vi.fn();
    renderWith(client, <LinkForm link={link} fresh={false} tags={[{ id: 'tag_1', name: 'Work', color: 'cyan' }]} onSaved={onSaved} />);
    fireEvent.click(screen.getByRole('button', { name: '+ Work' }));
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'Later' } });
    fireEvent.keyDown(screen.getByLabelText('Tags'), { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toEqual([{ id: 'lnk_1', tag_names: ['Work', 'Later'] }]);
  });
});
