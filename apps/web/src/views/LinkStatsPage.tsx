import type { Link as ShortLink } from '@shortlinks/client';
import { ShortlinksError } from '@shortlinks/client';
import { TagChip, useShortlinks } from '@shortlinks/ui';
import { formErrorOf } from '@shortlinks/ui/errors';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { AccountState } from '../account.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { AnalyticsPending } from './AnalyticsPending.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** One link's statistics: what the link is, then its clicks over time and their breakdowns. */
export function LinkStatsPage({ id, account }: { id: string; account: AccountState }) {
  const { client } = useShortlinks();
  const [link, setLink] = useState<ShortLink | null>();
  const [error, setError] = useState<string>();
  useDocumentTitle(link ? link.title : link === null ? 'Link not found' : 'Link', 'Statistics');

  useEffect(() => {
    let current = true;
    client.links.get(id).then(
      (found) => current && setLink(found),
      (caught) => {
        if (!current) return;
        if (caught instanceof ShortlinksError && caught.status === 404) setLink(null);
        else setError(formErrorOf(caught).message);
      },
    );
    return () => {
      current = false;
    };
  }, [client, id, account.version]);

  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={paths.links}>Links</Link> <span aria-hidden="true">/</span> <span>Statistics</span>
      </nav>
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      {link === null ? (
        <div className="empty">
          <h1>Link not found</h1>
          <p>This link does not exist in your account, or it has been deleted.</p>
        </div>
      ) : null}
      {link ? (
        <>
          <div className="page-head">
            <div className="link-head">
              <h1>{link.title}</h1>
              <a className="link-short" href={link.short_url} target="_blank" rel="noreferrer noopener">
                {link.short_url.replace(/^https?:\/\//, '')}
              </a>
              <div className="link-destination" title={link.destination_url}>
                → {link.destination_url}
              </div>
              <div className="row wrap">
                {link.tags.map((tag) => (
                  <TagChip key={tag.id} tag={tag} />
                ))}
                <span className="muted small">Created {dateFormat.format(link.created_at)}</span>
              </div>
            </div>
            <div className="clicks big" data-testid="link-total-clicks">
              <strong>{link.click_count.toLocaleString()}</strong>
              <span>{link.click_count === 1 ? 'click' : 'clicks'} in all</span>
            </div>
          </div>
          {/* ANALYTICS: <LinkAnalytics linkId={link.id} onOpenLink={(id) => navigate(paths.link(id))} /> */}
          <AnalyticsPending of="link" />
        </>
      ) : null}
    </>
  );
}
