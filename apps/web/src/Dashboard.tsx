import type { ShortlinksClient } from '@shortlinks/client';
import { PlanUsage, ShortlinksProvider } from '@shortlinks/ui';
import type { ReactNode } from 'react';
import { Link, Route, Switch, useRoute } from 'wouter';
import { type AccountState, useAccount } from './account.ts';
import { useInAppLinks } from './in-app-links.ts';
import { paths } from './routes.ts';
import { LinkStatsPage } from './views/LinkStatsPage.tsx';
import { LinksPage } from './views/LinksPage.tsx';
import { NotFoundPage } from './views/NotFoundPage.tsx';
import { OverviewPage } from './views/OverviewPage.tsx';
import { TagStatsPage } from './views/TagStatsPage.tsx';
import { TagsPage } from './views/TagsPage.tsx';
import { WebhooksPage } from './views/WebhooksPage.tsx';

/** The signed-in dashboard: a header with the navigation and the plan's usage, and the view of the address. */
export function Dashboard({ client, notice, onSignOut }: { client: ShortlinksClient; notice: string | undefined; onSignOut: () => void }) {
  const account = useAccount(client);
  useInAppLinks();
  return (
    <ShortlinksProvider client={client}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link href={paths.links} className="brand-mark">
          Shortlinks
        </Link>
        <nav aria-label="Main" className="app-nav">
          <NavLink href={paths.links} also="/links/*">
            Links
          </NavLink>
          <NavLink href={paths.tags} also="/tags/*">
            Tags
          </NavLink>
          <NavLink href={paths.overview}>Overview</NavLink>
          <NavLink href={paths.webhooks}>Webhooks</NavLink>
        </nav>
        <section className="app-usage" aria-label="Plan usage">
          {account.usage ? (
            <>
              <PlanUsage label="links" used={account.usage.links} limit={account.usage.linkLimit} />
              <PlanUsage label="tags" used={account.usage.tags} limit={account.usage.tagLimit} />
            </>
          ) : null}
        </section>
        <button type="button" className="button small" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {notice ? (
          <div className="banner info" role="status">
            {notice}
          </div>
        ) : null}
        {account.error ? (
          <div className="banner error" role="alert">
            {account.error}
          </div>
        ) : null}
        <Views account={account} />
      </main>
    </ShortlinksProvider>
  );
}

function Views({ account }: { account: AccountState }) {
  return (
    <Switch>
      <Route path={paths.links}>
        <LinksPage account={account} />
      </Route>
      <Route path="/links/:id">{(params) => <LinkStatsPage id={params.id} account={account} />}</Route>
      <Route path={paths.tags}>
        <TagsPage account={account} />
      </Route>
      <Route path="/tags/:id">{(params) => <TagStatsPage id={params.id} account={account} />}</Route>
      <Route path={paths.overview}>
        <OverviewPage />
      </Route>
      <Route path={paths.webhooks}>
        <WebhooksPage />
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

/** A navigation entry, marked as the current page for its own view and the views below it. */
function NavLink({ href, also, children }: { href: string; also?: string; children: ReactNode }) {
  const [exact] = useRoute(href);
  const [below] = useRoute(also ?? href);
  const current = exact || below;
  return (
    <Link href={href} className={current ? 'nav-link current' : 'nav-link'} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}
