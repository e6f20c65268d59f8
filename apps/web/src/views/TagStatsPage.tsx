import { TagChip } from '@shortlinks/ui';
import { Link } from 'wouter';
import type { AccountState } from '../account.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { AnalyticsPending } from './AnalyticsPending.tsx';

/** One tag's statistics: the clicks of every link that carries it, together. */
export function TagStatsPage({ id, account }: { id: string; account: AccountState }) {
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
      ) : null}
      {tag ? (
        <>
          <div className="page-head">
            <h1 className="row">
              <TagChip tag={tag} />
              <span className="visually-hidden">statistics</span>
            </h1>
            <span className="muted">
              {tag.link_count} {tag.link_count === 1 ? 'link' : 'links'}
            </span>
          </div>
          {/* ANALYTICS: <TagAnalytics tagId={tag.id} onOpenLink={(id) => navigate(paths.link(id))} /> */}
          <AnalyticsPending of="tag" />
        </>
      ) : null}
    </>
  );
}
