// @vitest-environment happy-dom
import type { ShortlinksClient, Tag } from '@shortlinks/client';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ShortlinksProvider } from '../ShortlinksProvider.tsx';
import { TagManager } from './TagManager.tsx';

// As the API lists them: newest first.
const tags: Tag[] = [
  { id: 'tag_3', name: 'work', color: 'indigo', link_count: 1 },
  { id: 'tag_2', name: 'Recipes', color: 'lime', link_count: 1_250 },
  { id: 'tag_1', name: 'Archive', color: 'slate', link_count: 0 },
];

afterEach(cleanup);

describe('TagManager', () => {
  test('tags are listed by name, with link counts written as every view writes numbers', () => {
    render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <TagManager tags={tags} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('data-testid'))).toEqual(['tag-row-Archive', 'tag-row-Recipes', 'tag-row-work']);
    expect(within(screen.getByTestId('tag-row-Recipes')).getByText('1,250')).toBeTruthy();
  });

  test('deleting asks first, in the right number (“1 link”), and the focus goes to Keep', async () => {
    const deleted: string[] = [];
    const client = {
      tags: {
        delete: async (id: string) => {
          deleted.push(id);
        },
      },
    } as unknown as ShortlinksClient;
    const onChanged = vi.fn();
    render(
      <ShortlinksProvider client={client}>
        <TagManager tags={tags} onChanged={onChanged} />
      </ShortlinksProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete work' }));
    const question = screen.getByRole('group', { name: 'Delete tag' });
    expect(question.textContent).toContain('Delete work? It is removed from 1 link; the links stay.');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Keep'));
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Recipes' }));
    expect(screen.getByRole('group', { name: 'Delete tag' }).textContent).toContain('removed from 1,250 links');
    fireEvent.click(screen.getByRole('button', { name: 'Delete tag' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
    expect(deleted).toEqual(['tag_2']);
  });

  /** A tag manager whose client records renames, for the rename scenarios. */
  const renaming = () => {
    const renamed: unknown[] = [];
    const client = {
      tags: {
        update: async (change: { id: string; name?: string }) => {
          renamed.push(change);
          return { ...tags[0], ...change };
        },
      },
    } as unknown as ShortlinksClient;
    render(
      <ShortlinksProvider client={client}>
        <TagManager tags={tags} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    return renamed;
  };

  test('a new name is saved when the field is left, once, and “Saved” says so', async () => {
    const renamed = renaming();
    const field = screen.getByLabelText('Name of work');
    fireEvent.focus(field);
    fireEvent.change(field, { target: { value: 'Work' } });
    fireEvent.blur(field);
    await waitFor(() => expect(renamed).toEqual([{ id: 'tag_3', name: 'Work' }]));
    // The list has not come back with the new name yet: Save is still offered, and saves nothing twice.
    fireEvent.blur(field);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(renamed).toHaveLength(1);
  });

  test('Save (or Enter) saves the new name; leaving the field for Save does not save it twice; an unchanged name saves nothing', async () => {
    const renamed = renaming();
    const row = screen.getByTestId('tag-row-Archive');
    const field = within(row).getByLabelText('Name of Archive');
    fireEvent.blur(field);
    expect(renamed).toEqual([]);
    fireEvent.change(field, { target: { value: 'Old stuff' } });
    const save = within(row).getByRole('button', { name: 'Save (rename Archive)' });
    fireEvent.blur(field, { relatedTarget: save });
    fireEvent.click(save);
    await waitFor(() => expect(renamed).toEqual([{ id: 'tag_1', name: 'Old stuff' }]));
  });

  test('“Saved” appears once the rename is stored and the list shows the new name', async () => {
    const client = { tags: { update: async () => ({}) } } as unknown as ShortlinksClient;
    const { rerender } = render(
      <ShortlinksProvider client={client}>
        <TagManager tags={tags} onChanged={() => undefined} />
      </ShortlinksProvider>,
    );
    const field = screen.getByLabelText('Name of Archive');
    fireEvent.change(field, { target: { value: 'Old stuff' } });
    fireEvent.submit(field.closest('form') as HTMLFormElement);
    const renamedTags = tags.map((tag) => (tag.id === 'tag_1' ? { ...tag, name: 'Old stuff' } : tag));
    await waitFor(() => {
      rerender(
        <ShortlinksProvider client={client}>
          <TagManager tags={renamedTags} onChanged={() => undefined} />
        </ShortlinksProvider>,
      );
      expect(within(screen.getByTestId('tag-row-Old stuff')).getByRole('status').textContent).toBe('Saved');
    });
  });

  test('Escape puts the tag’s name back', () => {
    renaming();
    const field = screen.getByLabelText('Name of work') as HTMLInputElement;
    fireEvent.change(field, { target: { value: 'Wrok' } });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(field.value).toBe('work');
  });

  test('a tag’s link count leads to its links, when the host says where they are', () => {
    render(
      <ShortlinksProvider client={{} as ShortlinksClient}>
        <TagManager tags={tags} onChanged={() => undefined} linksHref={(tag) => `/app?tag=${tag.id}`} />
      </ShortlinksProvider>,
    );
    expect(screen.getByRole('link', { name: '1 link tagged work' }).getAttribute('href')).toBe('/app?tag=tag_3');
    expect(screen.getByRole('link', { name: `${(1_250).toLocaleString()} links tagged Recipes` }).textContent).toBe(
      (1_250).toLocaleString(),
    );
    // No links, nothing to list.
    expect(screen.queryByRole('link', { name: /tagged Archive/ })).toBeNull();
  });
});
