/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { useState } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { TagChip } from '../tags/TagChip.tsx';
import { formErrorOf } from './field-errors.ts';
import { LinkForm } from './LinkForm.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const countFormat = new Intl.NumberFormat();

/** One link of the list: what it is, its clicks, and its statistics, edit and delete actions. */
export function LinkRow({
  link,
  tags,
  onChanged,
  statisticsHref,
}: {
  link: Link;
  tags: TagSummary[];
  onChanged: () => void;
  /** Where the link's statistics are; without it the row has no Statistics action. */
  statisticsHref?: ((link: Link) => string) | undefined;
}) {
  const { client, copyText } = useShortlinks();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string>();

  const remove = async () => {
    try {
      await client.links.delete(link.id);
      onChanged();
    } catch (caught) {
      setError(formErrorOf(caught).message);
      setConfirming(false);
    }
  };

  return (
    <li className="link-row" data-testid="link-row" data-slug={link.slug}>
      <div className="link-row-main">
        <div style={{ minWidth: 0 }}>
          <div className="link-title">{link.title}</div>
          <div className="row" style={{ gap: 6, margin: '2px 0' }}>
            <span className="link-short">{link.short_url.replace(/^https?:\/\//, '')}</span>
            <button
              type="button"
              className="button small"
              aria-label={`Copy ${link.short_url}`}
              onClick={async () => setCopied(await copyText(link.short_url))}
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
          <div className="link-destination" title={link.destination_url}>
            {link.destination_url}
          </div>
          <div className="row" style={{ gap: 4, marginTop: 6, flexWrap: 'wrap' }}>
            {link.tags.map((tag) => (
              <TagChip key={tag.id} tag={tag} />
            ))}
            <span className="muted" style={{ fontSize: 12 }}>
              {dateFormat.format(link.created_at)}
              {link.expires_at ? ` · expires ${dateFormat.format(link.expires_at)}` : ''}
            </span>
          </div>
        </div>
        <div className="clicks">
          <strong>{countFormat.format(link.click_count)}</strong>
          <span>{link.click_count === 1 ? 'click' : 'clicks'}</span>
        </div>
        <div className="row" style={{ gap: 4 }}>
          {confirming ? (
            <>
              <button type="button" className="button small danger confirm" onClick={remove}>
                Delete link
              </button>
              <button type="button" className="button small" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </>
          ) : (
            <>
              {statisticsHref ? (
                <a className="button small" href={statisticsHref(link)} aria-label={`Statistics of ${link.title}`}>
                  Statistics
                </a>
              ) : null}
              <button type="button" className="button small" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit
              </button>
              <button type="button" className="button small danger" onClick={() => setConfirming(true)}>
                Delete
              </button>
            </>
          )}
        </div>
      </div>
      {confirming ? (
        <div className="banner error" style={{ margin: '8px 0 0' }}>
          Delete {link.short_url}? It stops working at once, and this cannot be undone.
        </div>
      ) : null}
      {error ? (
        <div className="banner error" role="alert" style={{ margin: '8px 0 0' }}>
          {error}
        </div>
      ) : null}
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
