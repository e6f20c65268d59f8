/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { useState } from 'react';
import { countOf, formatCount } from '../counts.ts';
import { ErrorBanner } from '../ErrorBanner.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { TagChip } from '../tags/TagChip.tsx';
import { DeleteLinkQuestion } from './DeleteLinkQuestion.tsx';
import { formErrorOf } from './field-errors.ts';
import { LinkForm } from './LinkForm.tsx';
import { expiryOf, whenText } from './link-dates.ts';
import { ShortUrlCopy } from './ShortUrlCopy.tsx';

/**
 * One link of the list in two lines: its title, tags and expiry; its short URL (a link, with Copy)
 * and where it leads (a link too). Then its clicks, and its statistics, edit and delete actions.
 * On a phone the parts wrap onto more lines rather than overlap (theme.css).
 */
export function LinkRow({
  link,
  tags,
  onChanged,
  statisticsHref,
  tagHref,
  selected = false,
  onSelect,
  now = Date.now,
}: {
  link: Link;
  tags: TagSummary[];
  onChanged: () => void;
  /** Where the link's statistics are; without it the row has no Statistics action. */
  statisticsHref?: ((link: Link) => string) | undefined;
  /** Where a tag chip leads (the list filtered by that tag); without it the chips are not links. */
  tagHref?: ((tag: TagSummary) => string) | undefined;
  /** Whether the row is ticked for a bulk action; the row has a tick box only with `onSelect`. */
  selected?: boolean;
  onSelect?: ((selected: boolean) => void) | undefined;
  /** The clock that decides whether the link has expired (tests give their own). */
  now?: () => number;
}) {
  const { client, messages, readOnly } = useShortlinks();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const expiry = expiryOf(link, now());

  const remove = async () => {
    try {
      await client.links.delete(link.id);
      onChanged();
    } catch (caught) {
      setError(formErrorOf(caught, messages).message);
      setConfirming(false);
    }
  };

  return (
    <li
      className={['link-row', expiry?.expired ? 'expired' : '', selected ? 'selected' : ''].filter(Boolean).join(' ')}
      data-testid="link-row"
      data-slug={link.slug}
    >
      <div className={onSelect ? 'link-row-main selectable' : 'link-row-main'}>
        {onSelect ? (
          <input
            type="checkbox"
            className="link-select"
            aria-label={`Select ${link.title}`}
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
          />
        ) : null}
        <div className="link-text">
          <div className="link-line">
            <span className="link-title">{link.title}</span>
            {expiry?.expired ? <span className="badge expired">Expired</span> : null}
            {link.tags.map((tag) =>
              tagHref ? (
                <a
                  key={tag.id}
                  className={`tag-chip tag-${tag.color} tag-link`}
                  href={tagHref(tag)}
                  aria-label={`Links tagged ${tag.name}`}
                >
                  {tag.name}
                </a>
              ) : (
                <TagChip key={tag.id} tag={tag} />
              ),
            )}
          </div>
          <div className="link-line">
            <ShortUrlCopy shortUrl={link.short_url} />
            <span className="muted link-arrow" aria-hidden="true">
              →
            </span>
            <a className="link-destination" href={link.destination_url} target="_blank" rel="noreferrer" title={link.destination_url}>
              {link.destination_url}
            </a>
          </div>
        </div>
        <div className="link-meta">
          <span className="clicks" title={countOf(link.click_count, 'click')}>
            <strong>{formatCount(link.click_count)}</strong> {link.click_count === 1 ? 'click' : 'clicks'}
          </span>
          {expiry ? (
            <span className={expiry.expired ? 'expiry expired' : 'expiry'} title={`${expiry.visits} Created ${whenText(link.created_at)}.`}>
              {expiry.text}
            </span>
          ) : (
            <span className="link-dates" title={`Created ${whenText(link.created_at)}`}>
              Created {whenText(link.created_at, 'date')}
            </span>
          )}
        </div>
        <div className="row link-actions">
          {statisticsHref ? (
            <a className="button small" href={statisticsHref(link)} aria-label={`Statistics of ${link.title}`}>
              Statistics
            </a>
          ) : null}
          {readOnly ? null : (
            <>
              <button type="button" className="button small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit
              </button>
              <button type="button" className="button small danger" onClick={() => setConfirming(true)} disabled={confirming}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      {confirming ? <DeleteLinkQuestion link={link} onConfirm={remove} onCancel={() => setConfirming(false)} /> : null}
      {error ? <ErrorBanner message={error} /> : null}
      {editing ? (
        <div className="link-edit">
          <LinkForm
            link={link}
            fresh={false}
            tags={tags}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              onChanged();
            }}
          />
        </div>
      ) : null}
    </li>
  );
}
