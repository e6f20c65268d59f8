/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { TagSummary } from '@shortlinks/contract';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { addTagName, tagsMatching } from './tag-names.ts';

/** One line of the suggestions: an existing tag, or the typed name as a new tag. */
type Suggestion = { kind: 'tag'; tag: TagSummary } | { kind: 'new'; name: string };

/**
 * Tags of a link: chips of the chosen names (removable) and a combobox. Typing filters the
 * account's other tags (names starting with the text first, then containing it, each by name);
 * Enter picks the highlighted suggestion — so "rec" + Enter picks "Recipes" — and the last
 * suggestion, "Create “rec”", makes a new tag. The suggestions float below the box while it has
 * the focus, so a message under the field stays next to the box.
 */
export function TagPicker({
  available,
  selected,
  onChange,
  inputId,
  invalid,
  describedBy,
}: {
  available: TagSummary[];
  selected: string[];
  onChange: (names: string[]) => void;
  inputId?: string;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  const listId = useId();
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  // The highlighted suggestion; -1: none (nothing typed yet, so Enter adds nothing by surprise).
  const [active, setActive] = useState(-1);
  const isChosen = (name: string) => selected.some((other) => other.toLowerCase() === name.toLowerCase());
  const colourOf = (name: string) => available.find((tag) => tag.name.toLowerCase() === name.toLowerCase())?.color;

  const name = typed.trim().replace(/\s+/g, ' ');
  const known = available.some((tag) => tag.name.toLowerCase() === name.toLowerCase());
  const suggestions: Suggestion[] = [
    ...tagsMatching(
      available.filter((tag) => !isChosen(tag.name)),
      name,
    ).map((tag) => ({ kind: 'tag' as const, tag })),
    ...(name !== '' && !known && !isChosen(name) ? [{ kind: 'new' as const, name }] : []),
  ];
  const optionId = (index: number) => `${listId}-${index}`;
  const shown = open && suggestions.length > 0;

  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView?.({ block: 'nearest' });
  });

  const type = (text: string) => {
    setTyped(text.replace(',', ''));
    setOpen(true);
    setActive(text.trim() === '' ? -1 : 0);
  };
  const choose = (suggestion: Suggestion) => {
    onChange(addTagName(selected, suggestion.kind === 'tag' ? suggestion.tag.name : suggestion.name, available));
    setTyped('');
    setActive(-1);
    // Closed until the person types again (or presses ↓): the list must not cover the fields below.
    setOpen(false);
  };
  /** The text as typed (spelt like the tag it names exactly, if any): Enter without a highlight, or a comma. */
  const commitTyped = () => {
    if (name === '') return;
    onChange(addTagName(selected, name, available));
    setTyped('');
    setActive(-1);
  };
  /**
   * Leaving the box keeps a name that is complete: a tag's exact name, or a new name nothing else
   * resembles. Text that is the start of existing tags ("rec" for "Recipes") stays in the box,
   * unchosen: leaving is no choice between them, and must not create a tag by accident.
   */
  const leave = () => {
    setOpen(false);
    setActive(-1);
    if (known || !suggestions.some((suggestion) => suggestion.kind === 'tag')) commitTyped();
  };
  const move = (step: 1 | -1) => {
    setOpen(true);
    const count = suggestions.length;
    if (count === 0) return;
    setActive((current) => (current < 0 ? (step > 0 ? 0 : count - 1) : (current + step + count) % count));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const highlighted = shown ? suggestions[active] : undefined;
    if (event.key === 'Enter') {
      // Enter never submits the form from here: it picks, or does nothing.
      event.preventDefault();
      if (highlighted) choose(highlighted);
      else commitTyped();
    } else if (event.key === ',') {
      event.preventDefault();
      commitTyped();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Escape' && (shown || typed !== '')) {
      // First the list closes, then the text goes.
      event.preventDefault();
      if (shown) setOpen(false);
      else setTyped('');
      setActive(-1);
    } else if (event.key === 'Backspace' && typed === '' && selected.length > 0) {
      onChange(selected.slice(0, -1));
    }
  };

  return (
    <div className="tag-picker-frame">
      <div className="tag-picker">
        {selected.map((chosen) => {
          const color = colourOf(chosen);
          return (
            <span key={chosen.toLowerCase()} className={`tag-chip ${color ? `tag-${color}` : 'tag-new'}`}>
              {chosen}
              {color ? null : <span className="muted"> (new)</span>}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove tag ${chosen}`}
                onClick={() => onChange(selected.filter((other) => other !== chosen))}
              >
                ×
              </button>
            </span>
          );
        })}
        <input
          id={inputId}
          role="combobox"
          aria-expanded={shown}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
          autoComplete="off"
          value={typed}
          placeholder={selected.length === 0 ? 'Add tags…' : ''}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => type(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={leave}
        />
      </div>
      {/* Always in the page (empty when closed), so aria-controls names an element. */}
      <div id={listId} role="listbox" aria-label="Suggestions" className="tag-options" hidden={!shown}>
        {shown
          ? suggestions.map((suggestion, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (aria-activedescendant); a click is the mouse's way
              <div
                key={suggestion.kind === 'tag' ? suggestion.tag.id : `new:${suggestion.name}`}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className="tag-option"
                // Keep the focus in the box: a click picks without the blur adding the typed text first.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(suggestion)}
              >
                {suggestion.kind === 'tag' ? (
                  <span className={`tag-chip tag-${suggestion.tag.color}`}>{suggestion.tag.name}</span>
                ) : (
                  <span>
                    Create <span className="tag-chip tag-new">{suggestion.name}</span>
                  </span>
                )}
              </div>
            ))
          : null}
      </div>
    </div>
  );
}
