import { AccountAnalytics } from '@shortlinks/ui/analytics';
import { useLocation } from 'wouter';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** The account's clicks as a whole: every link together, the top links, where the clicks came from. */
export function OverviewPage() {
  useDocumentTitle('Overview');
  const [, navigate] = useLocation();
  // One heading: the page's. The statistics' own ("All links") is hidden here (dashboard.css), its
  // subtitle stays under the page's heading.
  return (
    <div className="overview-page">
      <div className="page-head">
        <h1>Overview</h1>
      </div>
      <AccountAnalytics onOpenLink={(id) => navigate(paths.link(id))} />
    </div>
  );
}
