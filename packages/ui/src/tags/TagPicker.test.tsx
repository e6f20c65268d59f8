// @vitest-environment happy-dom
import type { TagSummary } from '@shortlinks/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { TagPicker } from './TagPicker.tsx';

// As the API lists them: newest first.
const tags: TagSummary[] = [
  { id: 'tag_5', name: 'Work', color: 'indigo' },
  { id: 'tag_4', name: 'Recipes', color: 'lime' },
  { id: 'tag_3', name: 'Pre-reading', color: 'cyan' },
  { id: 'tag_2', name: 'Q10', color: 'slate' },
  { id: 'tag_1', name: 'Q2', color: 'violet' },
];

/** The picker as a form holds it, with the chosen names readable by the test. */
function Picker({ initial = [] }: { initial?: string[] }) {
  const [selected, setSelected] = useState(initial);
  return (
    <>
      <TagPicker available={tags} selected={selected} onChange={setSelected} inputId="tags" />
      <output data-testid="chosen">{selected.join('|')}</output>
    </>
  );
}

const box = () => screen.getByRole('combobox');
const options = () => screen.queryAllByRole('option').map((option) => option.textContent);
const chosen = () => screen.getByTestId('chosen').textContent;

afterEach(cleanup);

describe('TagPicker', () => {
  test('the account’s tags are offered by name when the box has the focus, not before', () => {
    render(<Picker />);
    expect(options()).toEqual([]);
    fireEvent.focus(box());
    expect(options()).toEqual(['Pre-reading', 'Q2', 'Q10', 'Recipes', 'Work']);
    expect(box().getAttribute('aria-expanded')).toBe('true');
  });

  test('typing filters: names starting with the text first, then names containing it', () => {
    render(<Picker />);
    fireEvent.change(box(), { target: { value: 'rec' } });
    expect(options()).toEqual(['Recipes', 'Create rec']);
    fireEvent.change(box(), { target: { value: 're' } });
    expect(options()).toEqual(['Recipes', 'Pre-reading', 'Create re']);
  });

  test('"rec" + Enter picks Recipes, the highlighted suggestion, instead of creating "rec"', () => {
    render(<Picker />);
    fireEvent.change(box(), { target: { value: 'rec' } });
    expect(box().getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Recipes' }).id);
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(chosen()).toBe('Recipes');
    expect((box() as HTMLInputElement).value).toBe('');
    // The list closes so that it covers nothing below; ↓ opens it again.
    expect(box().getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(options()).toEqual(['Pre-reading', 'Q2', 'Q10', 'Work']);
  });

  test('a new tag is made by choosing "Create …" (arrow keys move the highlight) or by a name nothing matches', () => {
    render(<Picker />);
    fireEvent.change(box(), { target: { value: 'rec' } });
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(box().getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Create rec' }).id);
    fireEvent.keyDown(box(), { key: 'Enter' });
    fireEvent.change(box(), { target: { value: 'Travel' } });
    expect(options()).toEqual(['Create Travel']);
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(chosen()).toBe('rec|Travel');
  });

  test('a chosen tag is not offered again; a name typed exactly takes the tag’s spelling', () => {
    render(<Picker initial={['Work']} />);
    fireEvent.change(box(), { target: { value: 'WORK' } });
    expect(options()).toEqual([]);
    fireEvent.change(box(), { target: { value: 'q2' } });
    expect(options()).toEqual(['Q2']);
    fireEvent.keyDown(box(), { key: ',' });
    expect(chosen()).toBe('Work|Q2');
  });

  test('Enter with nothing typed adds nothing and never submits the form', () => {
    let submitted = false;
    render(
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submitted = true;
        }}
      >
        <Picker />
      </form>,
    );
    fireEvent.focus(box());
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(chosen()).toBe('');
    expect(submitted).toBe(false);
  });

  test('a click on a suggestion picks it', () => {
    render(<Picker />);
    fireEvent.focus(box());
    fireEvent.click(screen.getByRole('option', { name: 'Q10' }));
    expect(chosen()).toBe('Q10');
  });

  test('leaving the box keeps a complete name, but not the start of existing tags', () => {
    render(<Picker />);
    fireEvent.change(box(), { target: { value: 'Later' } });
    fireEvent.blur(box());
    expect(chosen()).toBe('Later');
    fireEvent.change(box(), { target: { value: 'rec' } });
    fireEvent.blur(box());
    expect(chosen()).toBe('Later');
    expect((box() as HTMLInputElement).value).toBe('rec');
    fireEvent.change(box(), { target: { value: 'recipes' } });
    fireEvent.blur(box());
    expect(chosen()).toBe('Later|Recipes');
  });

  test('Escape closes the suggestions, then clears the text', () => {
    render(<Picker />);
    fireEvent.change(box(), { target: { value: 'rec' } });
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect((box() as HTMLInputElement).value).toBe('rec');
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect((box() as HTMLInputElement).value).toBe('');
    expect(chosen()).toBe('');
  });
});
