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
});
