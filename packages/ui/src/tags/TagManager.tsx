/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Tag } from '@shortlinks/client';
import type { TagColor } from '@shortlinks/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Confirmation } from '../Confirmation.tsx';
import { countOf, formatCount, nounFor } from '../counts.ts';
import { ErrorBanner } from '../ErrorBanner.tsx';
import { TextField } from '../Field.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { ColourPicker } from './ColourPicker.tsx';
import { TagChip } from './TagChip.tsx';
import { tagErrorOf } from './tag-errors.ts';
import { sortedByName } from './tag-names.ts';

/** Create, rename, recolour and delete tags (listed by name), with how many links carry each. */
export function TagManager({
  tags,
  onChanged,
  statisticsHref,
  linksHref,
}: {
  tags: Tag[];
  onChanged: () => void;
  /** Where a tag's statistics are (the host's route); without it the rows have no Statistics action. */
  statisticsHref?: (tag: Tag) => string;
  /** Where the links carrying a tag are listed; with it, a tag's link count leads there. */
  linksHref?: (tag: Tag) => string;
}) {
  const { client, messages, readOnly } = useShortlinks();
  const [name, setName] = useState('');
  const [color, setColor] = useState<TagColor>('indigo');
  const [error, setError] = useState<{ name?: string; form?: string }>({});

  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await client.tags.create({ name, color });
      setName('');
      setError({});
      onChanged();
    } catch (caught) {
      setError(tagErrorOf(caught, messages));
    }
  };

  return (
    <section aria-label="Tags">
      {readOnly ? null : (
        <form onSubmit={create} className="row tag-create" aria-label="Create a tag">
          <div style={{ width: 260 }}>
            <TextField label="New tag" error={error.name} name="new_tag" placeholder="Name" value={name} onValueChange={setName} />
          </div>
          <div className="field">
            <span className="label">Colour</span>
            <ColourPicker label="Colour of the new tag" value={color} onChange={setColor} />
          </div>
          <button type="submit" className="button primary" style={{ marginTop: 20 }}>
            Add tag
          </button>
        </form>
      )}
      {error.form ? <ErrorBanner message={error.form} /> : null}
      {tags.length === 0 ? (
        <div className="empty">No tags yet. Create one above, or type a new tag name on a link.</div>
      ) : (
        <table className="tag-table">
          <thead>
            <tr>
              <th>Tag</th>
              <th>Name</th>
              <th>Colour</th>
              <th>Links</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sortedByName(tags).map((tag) => (
              <TagRow key={tag.id} tag={tag} onChanged={onChanged} statisticsHref={statisticsHref} linksHref={linksHref} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** How long "Saved" stays beside a renamed tag. */
const SAVED_CUE_MS = 4_000;

function TagRow({
  tag,
  onChanged,
  statisticsHref,
  linksHref,
}: {
  tag: Tag;
  onChanged: () => void;
  statisticsHref: ((tag: Tag) => string) | undefined;
  linksHref: ((tag: Tag) => string) | undefined;
}) {
  const { client, messages, readOnly } = useShortlinks();
  const [name, setName] = useState(tag.name);
  const [error, setError] = useState<{ name?: string; form?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  // The name being saved, then stored: leaving the field and pressing Save (or Enter) at once, or
  // leaving it again before the list shows the new name, save it once.
  const saving = useRef<string>(undefined);
  const stored = useRef<string>(undefined);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_CUE_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const save = async (change: { name?: string; color?: TagColor }) => {
    try {
      await client.tags.update({ id: tag.id, ...change });
      setError({});
      setSaved(true);
      onChanged();
      return true;
    } catch (caught) {
      setSaved(false);
      setError(tagErrorOf(caught, messages));
      return false;
    }
  };
  /** Saves the name typed, unless it is the tag's name already or is being saved now. */
  const rename = async () => {
    if (name === tag.name || name === saving.current || name === stored.current) return;
    saving.current = name;
    try {
      if (await save({ name })) stored.current = name;
    } finally {
      saving.current = undefined;
    }
  };
  const remove = async () => {
    try {
      await client.tags.delete(tag.id);
      onChanged();
    } catch (caught) {
      setError(tagErrorOf(caught, messages));
      setConfirming(false);
    }
  };

  return (
    <tr data-testid={`tag-row-${tag.name}`} className="tag-row">
      <td>
        <TagChip tag={tag} />
      </td>
      <td>
        {readOnly ? (
          <span className="tag-name-text">{tag.name}</span>
        ) : (
          <form
            className="row tag-rename"
            aria-label={`Rename ${tag.name}`}
            onSubmit={(event) => {
              event.preventDefault();
              void rename();
            }}
            // Leaving the name saves it too (to this row's Save as well: `rename` saves a name once).
            onBlur={() => void rename()}
            onKeyDown={(event) => {
              if (event.key !== 'Escape' || name === tag.name) return;
              setName(tag.name);
              setError({});
            }}
          >
            <TextField
              label={`Name of ${tag.name}`}
              hideLabel
              error={error.name ?? error.form}
              value={name}
              onValueChange={(value) => {
                setName(value);
                setSaved(false);
              }}
              className="tag-name-field"
            />
            {name !== tag.name ? (
              // Out of the tab order: Tab from the name saves it (leaving the field), and the button,
              // gone once saved, would take the keyboard's place with it.
              <button type="submit" className="button small" tabIndex={-1}>
                Save<span className="visually-hidden"> (rename {tag.name})</span>
              </button>
            ) : saved ? (
              <span className="tag-saved" role="status">
                Saved
              </span>
            ) : null}
          </form>
        )}
      </td>
      <td>{readOnly ? null : <ColourPicker label={`Colour of ${tag.name}`} value={tag.color} onChange={(color) => save({ color })} />}</td>
      {/* The noun is shown on a phone, where the table's "Links" heading is not (theme.css). */}
      <td className="tag-count" data-noun={nounFor(tag.link_count, 'link')}>
        {linksHref && tag.link_count > 0 ? (
          <a href={linksHref(tag)} aria-label={`${countOf(tag.link_count, 'link')} tagged ${tag.name}`}>
            {formatCount(tag.link_count)}
          </a>
        ) : (
          formatCount(tag.link_count)
        )}
      </td>
      <td className="tag-actions">
        {confirming ? (
          <Confirmation confirmLabel="Delete tag" onConfirm={remove} onCancel={() => setConfirming(false)}>
            {tag.link_count === 0
              ? `Delete ${tag.name}? No link carries it.`
              : `Delete ${tag.name}? It is removed from ${countOf(tag.link_count, 'link')}; the links stay.`}
          </Confirmation>
        ) : (
          <span className="row" style={{ justifyContent: 'flex-end', gap: 4 }}>
            {statisticsHref ? (
              <a className="button small" href={statisticsHref(tag)} aria-label={`Statistics of ${tag.name}`}>
                Statistics
              </a>
            ) : null}
            {readOnly ? null : (
              <button type="button" className="button small danger" onClick={() => setConfirming(true)} aria-label={`Delete ${tag.name}`}>
                Delete
              </button>
            )}
          </span>
        )}
      </td>
    </tr>
  );
}
