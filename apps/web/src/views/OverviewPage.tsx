import { useDocumentTitle } from '../useDocumentTitle.ts';
import { AnalyticsPending } from './AnalyticsPending.tsx';

/** The account's clicks as a whole: every link together, the top links, where the clicks came from. */
export function OverviewPage() {
  useDocumentTitle('Overview');
  return (
    <>
      <div className="page-head">
        <h1>Overview</h1>
      </div>
      {/* ANALYTICS: <AccountAnalytics onOpenLink={(id) => navigate(paths.link(id))} /> */}
      <AnalyticsPending of="account" />
    </>
  );
}
