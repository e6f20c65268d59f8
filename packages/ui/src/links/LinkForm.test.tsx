// @vitest-environment happy-dom
import { type Link, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentProps, ReactNode } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { sampleLink } from '../testing/sample-link.ts';
import { LinkForm } from './LinkForm.tsx';
import { SLUG_RULE } from './slug-rule.ts';

const link = sampleLink();

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

/** Renders `ui` as an app does: below a provider that holds the client (and what else the host gives). */
const renderWith = (
  client: ShortlinksClient,
  ui: ReactNode,
  host: Omit<ComponentProps<typeof ShortlinksProvider>, 'client' | 'children'> = {},
) =>
  render(
    <ShortlinksProvider client={client} {...host}>
      {ui}
    </ShortlinksProvider>,
  );

/** A client that saves what it is sent, recording every call by name. */
function savingClient() {
  const calls: [string, unknown][] = [];
  const client = {
    links: {
      update: async (input: { id: string; title?: string }) => {
        calls.push(['update', input]);
        return { ...link, ...input };
      },
      create: async (input: { slug: string; title: string }) => {
        calls.push(['create', input]);
        return { ...link, id: 'lnk_2', slug: input.slug, short_url: `https://sho.rt/${input.slug}`, title: input.title };
      },
      delete: async (id: string) => {
        calls.push(['delete', id]);
      },
      upsert: async (input: { external_id: string; title: string }) => {
        calls.push(['upsert', input]);
        return { ...link, id: 'lnk_2', slug: 'spring', short_url: 'https://sho.rt/spring', ...input, created: false };
      },
    },
  } as unknown as ShortlinksClient;
  return { client, calls };
}

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
    fireEvent.focus(screen.getByLabelText('Tags'));
    fireEvent.click(screen.getByRole('option', { name: 'Work' }));
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'Later' } });
    fireEvent.keyDown(screen.getByLabelText('Tags'), { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toEqual([{ id: 'lnk_1', tag_names: ['Work', 'Later'] }]);
  });

  test('a title the person saved is told to the host, as the server stored it; other changes are not', async () => {
    const { client } = savingClient();
    const onTitleChosen = vi.fn();
    const onSaved = vi.fn();
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={onSaved} />, { onTitleChosen });
    fireEvent.change(screen.getByLabelText('Comments'), { target: { value: 'for the team' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(onTitleChosen).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'My reading' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(2));
    expect(onTitleChosen).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: 'lnk_1', title: 'My reading' }));
  });

  test('a fresh link given its own slug is created anew, the random one deleted, and the host told of the new link', async () => {
    const { client, calls } = savingClient();
    const onLinkCreated = vi.fn();
    const onTitleChosen = vi.fn();
    const onSaved = vi.fn();
    renderWith(client, <LinkForm link={link} fresh tags={[]} onSaved={onSaved} />, { onLinkCreated, onTitleChosen });
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'spring' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls).toEqual([
      ['create', expect.objectContaining({ slug: 'spring', destination_url: link.destination_url })],
      ['delete', 'lnk_1'],
    ]);
    expect(onLinkCreated).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: 'lnk_2', short_url: 'https://sho.rt/spring' }));
    // The page's title was kept, so there is no title of the person's own to remember.
    expect(onTitleChosen).not.toHaveBeenCalled();
  });

  test('on an existing link, Change… unlocks the slug; Save asks first, then moves the link with all it has', async () => {
    const { client, calls } = savingClient();
    const onSaved = vi.fn();
    const tagged: Link = {
      ...link,
      click_count: 12,
      tags: [{ id: 'tag_1', name: 'Work', color: 'cyan' }],
      comments: 'for the team',
      destination_url: 'https://example.com/read?utm_source=news',
    };
    renderWith(client, <LinkForm link={tagged} fresh={false} tags={[]} onSaved={onSaved} />);
    expect(screen.getByLabelText('Slug').hasAttribute('readonly')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Change…' }));
    expect(screen.getByLabelText('Slug').hasAttribute('readonly')).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Slug')));
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'spring' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    const question = screen.getByRole('group', { name: 'Move link' });
    expect(question.textContent).toContain('Move this link to sho.rt/spring? sho.rt/abc123 stops working at once');
    expect(question.textContent).toContain('its 12 clicks stay in the account’s overview');
    // Nothing is sent before the answer, and the safe answer has the focus.
    expect(calls).toEqual([]);
    expect(document.activeElement?.textContent).toBe('Not now');
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(calls).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move link' }));
    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ id: 'lnk_2' }), 'Saved: the link is now sho.rt/spring'),
    );
    expect(calls).toEqual([
      [
        'create',
        {
          title: 'Read me',
          destination_url: 'https://example.com/read',
          slug: 'spring',
          utm: { source: 'news' },
          tag_names: ['Work'],
          comments: 'for the team',
        },
      ],
      ['delete', 'lnk_1'],
    ]);
    expect(screen.getByRole('status').textContent).toBe('Saved: the link is now sho.rt/spring');
  });

  test('a moved link keeps its external id: it is handed over once the old link is gone', async () => {
    const { client, calls } = savingClient();
    const onSaved = vi.fn();
    renderWith(client, <LinkForm link={{ ...link, external_id: 'crm-42' }} fresh={false} tags={[]} onSaved={onSaved} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change…' }));
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'spring' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move link' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.map(([name]) => name)).toEqual(['create', 'delete', 'upsert']);
    expect(calls[0]?.[1]).not.toHaveProperty('external_id');
    expect(calls[2]?.[1]).toEqual({ title: 'Read me', destination_url: link.destination_url, external_id: 'crm-42' });
    expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ id: 'lnk_2', external_id: 'crm-42' }), expect.stringMatching(/^Saved/));
  });

  test('a save says Saved; one with nothing changed says so', async () => {
    const { client } = savingClient();
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Nothing changed'));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Read me later' } });
    expect(screen.getByRole('status').textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved'));
  });

  test('after a failed save the focus goes to the first field in error', async () => {
    const { client } = failingClient(new ShortlinksError('VALIDATION_ERROR', 'title must not be empty', 422, 'title'));
    renderWith(client, <LinkForm link={link} fresh tags={[]} onSaved={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('The title must not be empty.');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
  });

  test('an error for the whole form takes the focus, in the host’s words', async () => {
    const { client } = failingClient(new ShortlinksError('UNAUTHORIZED', 'bad key', 401));
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />, {
      messages: { keyRefused: 'Check the key in the options.' },
    });
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const banner = await screen.findByText('Check the key in the options.');
    await waitFor(() => expect(document.activeElement).toBe(banner));
  });

  test('a new slug the server would refuse is said at its field at once, before any question or request', async () => {
    const { client, calls } = savingClient();
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Change…' }));
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'bad slug' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The slug may contain only letters, digits, "-" and "_".')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Move link' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Slug'), { target: { value: 'docs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('"docs" is a reserved word and cannot be used as a slug.')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  test('a new destination is sent with the UTM values and a refusal is shown at the destination, cleared once it is changed', async () => {
    const { client, calls } = failingClient(
      new ShortlinksError('VALIDATION_ERROR', 'destination_url must not point to a private network', 422, 'destination_url'),
    );
    renderWith(
      client,
      <LinkForm
        link={sampleLink({ destination_url: 'https://example.com/read?utm_source=news' })}
        fresh={false}
        tags={[]}
        onSaved={() => undefined}
      />,
    );
    const destination = screen.getByLabelText('Destination') as HTMLInputElement;
    expect(destination.value).toBe('https://example.com/read');
    fireEvent.change(destination, { target: { value: 'http://10.0.0.1/x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const message = await screen.findByText('The page address must not point to a private network.');
    expect(message.id).toBe(destination.getAttribute('aria-describedby'));
    expect(calls).toEqual([{ id: 'lnk_1', destination_url: 'http://10.0.0.1/x', utm: { source: 'news' } }]);
    fireEvent.change(destination, { target: { value: 'https://example.com/read-again' } });
    expect(screen.queryByText('The page address must not point to a private network.')).toBeNull();
    expect(destination.getAttribute('aria-invalid')).toBe('false');
  });

  test('an address typed without a scheme is completed with https:// when the field is left', () => {
    const { client } = failingClient(new ShortlinksError('INTERNAL_ERROR', 'x', 500));
    renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    const destination = screen.getByLabelText('Destination') as HTMLInputElement;
    fireEvent.change(destination, { target: { value: 'example.com/x' } });
    fireEvent.blur(destination);
    expect(destination.value).toBe('https://example.com/x');
  });

  test('the slug says the one rule about changing it, fresh or not', () => {
    const { client } = failingClient(new ShortlinksError('INTERNAL_ERROR', 'x', 500));
    const hintOf = () => document.getElementById(screen.getByLabelText('Slug').getAttribute('aria-describedby') ?? '')?.textContent;
    const { unmount } = renderWith(client, <LinkForm link={link} fresh={false} tags={[]} onSaved={() => undefined} />);
    expect(hintOf()).toBe(SLUG_RULE);
    unmount();
    renderWith(client, <LinkForm link={link} fresh tags={[]} onSaved={() => undefined} />);
    expect(hintOf()).toBe(SLUG_RULE);
  });
});
