/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { countOf, ErrorBanner, LinkForm, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { QrCode } from '@shortlinks/ui/qr-code';
import { useEffect, useRef, useState } from 'react';
import { manageRouteHash } from '../lib/manage-route.ts';
import { ShortUrlText } from './ShortUrlText.tsx';

/**
 * The page's link in the popup: its short URL (copied already; **Copy** has the focus), its
 * statistics, its QR code and its form. A link made a moment ago in this popup can be taken back
 * with **Undo**, which deletes it.
 */
export function PageLinkView({
  link,
  createdHere,
  copied,
  tags,
  onCopy,
  onUndo,
  onSaved,
}: {
  link: Link;
  createdHere: boolean;
  copied: boolean;
  tags: TagSummary[];
  onCopy: () => Promise<void>;
  onUndo: () => Promise<void>;
  onSaved: (link: Link) => Promise<void>;
}) {
  const { messages } = useShortlinks();
  const [undoing, setUndoing] = useState(false);
  const [error, setError] = useState<string>();
  const copy = useRef<HTMLButtonElement>(null);
  useEffect(() => copy.current?.focus(), []);
  const expired = link.expires_at !== undefined && Date.now() >= link.expires_at;

  const undo = async () => {
    setUndoing(true);
    setError(undefined);
    try {
      await onUndo();
    } catch (caught) {
      setError(formErrorOf(caught, messages).message);
      setUndoing(false);
    }
  };

  return (
    <>
      <section className="page-link" aria-label="This page’s short link">
        <div className="page-link-text">
          <div className="page-link-state">
            {createdHere ? 'New short link' : `This page’s short link · ${countOf(link.click_count, 'click')}`}
            {expired ? <span className="badge expired">Expired</span> : null}
          </div>
          <output data-testid="short-url" className="page-link-url" title={link.short_url}>
            <ShortUrlText url={link.short_url} />
          </output>
          <div className="row" style={{ flexWrap: 'wrap', rowGap: 4, gap: 6 }}>
            <button type="button" className="button primary small" ref={copy} onClick={onCopy}>
              Copy
            </button>
            <a
              className="button small"
              href={chrome.runtime.getURL(`tabs/manage.html${manageRouteHash({ view: 'link', linkId: link.id })}`)}
              target="_blank"
              rel="noreferrer"
            >
              Statistics
            </a>
            {createdHere ? (
              <button
                type="button"
                className="button small"
                onClick={undo}
                disabled={undoing}
                title="Delete this link, made a moment ago: as if Shorten had not been pressed"
              >
                {undoing ? 'Undoing…' : 'Undo'}
              </button>
            ) : null}
          </div>
          <span className="muted page-link-copied" role="status">
            {copied ? 'Copied to the clipboard' : ''}
          </span>
          <div className="muted page-link-destination" title={link.destination_url}>
            → {link.destination_url}
          </div>
        </div>
        <QrCode url={link.short_url} />
      </section>
      {error ? <ErrorBanner message={error} /> : null}
      <LinkForm link={link} fresh={createdHere} tags={tags} onSaved={onSaved} />
    </>
  );
}
