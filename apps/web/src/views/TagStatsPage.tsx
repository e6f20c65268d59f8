import { TagAnalytics } from '@shortlinks/ui/analytics';
import { Link, useLocation } from 'wouter';
import type { AccountState } from '../account.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** One tag's statistics: the clicks of every link that carries it, together, and its top links. */
export function TagStatsPage({ id, account }: { id: string; account: AccountState }) {
  const [, navigate] = useLocation();
  const tag = account.tags?.find((candidate) => candidate.id === id);
  const missing = account.tags !== undefined && tag === undefined;
  useDocumentTitle(tag ? tag.name : missing ? 'Tag not found' : 'Tag', 'Statistics');

  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={paths.tags}>Tags</Link> <span aria-hidden="true">/</span> <span>Statistics</span>
      </nav>
      {missing ? (
        <div className="empty">
          <h1>Tag not found</h1>
          <p>This tag does not exist in your account, or it has been deleted.</p>
        </div>
      ) : (
        <>
          <h1 className="visually-hidden">{tag ? `Statistics of the tag ${tag.name}` : 'Statistics of the tag'}</h1>
          <TagAnalytics tagId={id} onOpenLink={(linkId) => navigate(paths.link(linkId))} />
        </>
      )}
    </>
  );
}
