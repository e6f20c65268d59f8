/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { TagSummary } from '@shortlinks/contract';
import { type KeyboardEvent, useState } from 'react';
import { addTagName } from './tag-names.ts';

/**
 * Tags of a link: chips of the chosen names (removable), a box to type a new name (Enter or
 * comma adds it), and the account's other tags to pick with one click.
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
  const [typed, setTyped] = useState('');
  const colourOf = (name: string) => available.find((tag) => tag.name.toLowerCase() === name.toLowerCase())?.color;
  const unpicked = available.filter((tag) => !selected.some((name) => name.toLowerCase() === tag.name.toLowerCase()));

  const commit = () => {
    if (typed.trim() === '') return;
    onChange(addTagName(selected, typed, available));
    setTyped('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && typed === '' && selected.length > 0) {
      onChange(selected.slice(0, -1));
    }
  };

  return (
    <div>
      <div className="tag-picker">
        {selected.map((name) => {
          const color = colourOf(name);
          return (
            <span key={name.toLowerCase()} className={`tag-chip ${color ? `tag-${color}` : 'tag-new'}`}>
              {name}
              {color ? null : <span className="muted"> (new)</span>}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove tag ${name}`}
                onClick={() => onChange(selected.filter((other) => other !== name))}
                style={{ border: 'none', background: 'none', cursor: 'pointer', padding: 0, color: 'inherit' }}
              >
                ×
              </button>
            </span>
          );
        })}
        <input
          id={inputId}
          value={typed}
          placeholder={selected.length === 0 ? 'Add tags…' : ''}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => setTyped(event.target.value.replace(',', ''))}
          onKeyDown={onKeyDown}
          onBlur={commit}
        />
      </div>
      {unpicked.length > 0 ? (
        <div className="row" style={{ flexWrap: 'wrap', gap: 5, marginTop: 6 }}>
          {unpicked.map((tag) => (
            <button
              key={tag.id}
              type="button"
              className={`tag-chip tag-${tag.color}`}
              aria-pressed="false"
              onClick={() => onChange(addTagName(selected, tag.name, available))}
            >
              + {tag.name}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
