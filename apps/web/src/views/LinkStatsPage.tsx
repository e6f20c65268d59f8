import { ShortlinksError } from '@shortlinks/client';
import { useShortlinks } from '@shortlinks/ui';
import { LinkAnalytics } from '@shortlinks/ui/analytics';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** One link's statistics: what the link is, its clicks over time and their breakdowns. */
export function LinkStatsPage({ id }: { id: string }) {
  const { client } = useShortlinks();
  const [, navigate] = useLocation();
  // The title for the tab; null: no such link in the account.
  const [title, setTitle] = useState<string | null>();
  useDocumentTitle(title ?? (title === null ? 'Link not found' : 'Link'), 'Statistics');

  useEffect(() => {
    let current = true;
    setTitle(undefined);
    client.links.get(id).then(
      (found) => current && setTitle(found.title),
      // Other failures are the statistics' to explain, where they are shown.
      (caught) => current && caught instanceof ShortlinksError && caught.status === 404 && setTitle(null),
    );
    return () => {
      current = false;
    };
  }, [client, id]);

  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={paths.links}>Links</Link> <span aria-hidden="true">/</span> <span>Statistics</span>
      </nav>
      {title === null ? (
        <div className="empty">
          <h1>Link not found</h1>
          <p>This link does not exist in your account, or it has been deleted.</p>
        </div>
      ) : (
        <>
          <h1 className="visually-hidden">{title ? `Statistics of ${title}` : 'Statistics of the link'}</h1>
          <LinkAnalytics linkId={id} onOpenLink={(linkId) => navigate(paths.link(linkId))} />
        </>
      )}
    </>
  );
}
