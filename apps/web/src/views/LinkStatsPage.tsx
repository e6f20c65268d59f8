import { DeleteLinkQuestion, ErrorBanner, LinkForm, useShortlinks } from '@shortlinks/ui';
import { LinkAnalytics } from '@shortlinks/ui/analytics';
import { formErrorOf } from '@shortlinks/ui/errors';
import { QrCode } from '@shortlinks/ui/qr-code';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { AccountState } from '../account.ts';
import type { ReadAuditLog } from '../audit/audit-calls.ts';
import { LinkHistory } from '../audit/LinkHistory.tsx';
import { LinkDetails } from '../links/LinkDetails.tsx';
import { useAccountTags } from '../links/useAccountTags.ts';
import { useLink } from '../links/useLink.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/**
 * A link's home (`/app/links/{id}`): what it is (short URL with Copy, destination, tags, created,
 * expiry, comments), what can be done with it (edit, delete, its QR code as PNG or SVG) and its
 * statistics, and its history (the audit log's entries for it) to those who may read the audit log. The file keeps its name from when the page held the statistics alone.
 */
export function LinkStatsPage({ id, account, history }: { id: string; account?: AccountState; history?: ReadAuditLog | undefined }) {
  const { client, messages, readOnly } = useShortlinks();
  const [, navigate] = useLocation();
  const { found, retry, replace } = useLink(client, id);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [said, setSaid] = useState<string>();
  const [error, setError] = useState<string>();
  // Bumped by each save, so the history reads the new entry.
  const [saves, setSaves] = useState(0);
  const tags = useAccountTags(client, account, editing);
  const link = found.state === 'found' ? found.link : undefined;
  useDocumentTitle(link?.title ?? (found.state === 'not-found' ? 'Link not found' : 'Link'), 'Statistics');

  const remove = async () => {
    if (!link) return;
    try {
      await client.links.delete(link.id);
      account?.changed();
      navigate(paths.links);
    } catch (caught) {
      setError(formErrorOf(caught, messages).message);
      setConfirming(false);
    }
  };

  const crumbs = (
    <nav className="crumbs" aria-label="Breadcrumb">
      <Link href={paths.links}>Links</Link> <span aria-hidden="true">/</span> <span>{link?.title ?? 'Link'}</span>
    </nav>
  );
  if (found.state === 'not-found') {
    return (
      <>
        {crumbs}
        <div className="empty">
          <h1>Link not found</h1>
          <p>This link does not exist in your account, or it has been deleted.</p>
        </div>
      </>
    );
  }
  return (
    <div className="link-page">
      {crumbs}
      {found.state === 'failed' ? <ErrorBanner message={found.message} onRetry={retry} /> : null}
      {link ? (
        <>
          <div className="page-head link-page-head">
            <h1>{link.title}</h1>
            <div className="row link-page-actions" hidden={readOnly}>
              <button
                type="button"
                className="button"
                aria-expanded={editing}
                onClick={() => {
                  setEditing(!editing);
                  setSaid(undefined);
                }}
              >
                Edit
              </button>
              <button type="button" className="button danger" onClick={() => setConfirming(true)} disabled={confirming}>
                Delete
              </button>
            </div>
          </div>
          {confirming ? <DeleteLinkQuestion link={link} onConfirm={remove} onCancel={() => setConfirming(false)} /> : null}
          {error ? <ErrorBanner message={error} /> : null}
          {said ? (
            <div className="banner ok" role="status">
              {said}
            </div>
          ) : null}
          {editing ? (
            <section className="panel link-page-edit" aria-label="Edit">
              <LinkForm
                link={link}
                fresh={false}
                tags={tags}
                onCancel={() => setEditing(false)}
                onSaved={(saved, words) => {
                  setEditing(false);
                  setSaid(words);
                  replace(saved);
                  setSaves((n) => n + 1);
                  account?.changed();
                  // Moved to a new slug: a new link, so a new address.
                  if (saved.id !== link.id) navigate(paths.link(saved.id), { replace: true });
                }}
              />
            </section>
          ) : null}
          <div className="link-home">
            <section className="panel" aria-labelledby="link-details-heading">
              <h2 id="link-details-heading">Details</h2>
              <LinkDetails link={link} />
            </section>
            <section className="panel link-page-qr" aria-labelledby="link-qr-heading">
              <h2 id="link-qr-heading">QR code</h2>
              <QrCode url={link.short_url} size={148} />
            </section>
          </div>
          <h2 className="link-page-section">Statistics</h2>
        </>
      ) : null}
      {found.state !== 'failed' ? (
        // Asked at once, beside the link itself; its own heading repeats the page's, so the page hides it (dashboard.css).
        <LinkAnalytics linkId={id} onOpenLink={(linkId) => navigate(paths.link(linkId))} />
      ) : null}
      {/* Last, under the statistics: it loads on its own, and nothing above moves when it arrives. */}
      {link && history ? <LinkHistory read={history} linkId={link.id} version={saves} /> : null}
    </div>
  );
}
