import type { Me } from '@shortlinks/contract';
import { PlanUsage, ShortlinksProvider } from '@shortlinks/ui';
import { type ReactNode, useMemo } from 'react';
import { Link, Route, Switch, useRoute } from 'wouter';
import type { Session } from './App.tsx';
import { type AccountState, useAccount } from './account.ts';
import { offersAuditLog, readAuditLog } from './audit/audit-calls.ts';
import { useInAppLinks } from './in-app-links.ts';
import { KeysPage } from './keys/KeysPage.tsx';
import { keysCalls } from './keys/keys-calls.ts';
import { paths } from './routes.ts';
import { people } from './session/people-api.ts';
import { AuditLogPage } from './views/AuditLogPage.tsx';
import { ConnectPage } from './views/ConnectPage.tsx';
import { DomainsPage } from './views/DomainsPage.tsx';
import { LinkStatsPage } from './views/LinkStatsPage.tsx';
import { LinksPage } from './views/LinksPage.tsx';
import { MembersPage } from './views/MembersPage.tsx';
import { NotFoundPage } from './views/NotFoundPage.tsx';
import { OverviewPage } from './views/OverviewPage.tsx';
import { SecurityPage } from './views/SecurityPage.tsx';
import { SessionsPage } from './views/SessionsPage.tsx';
import { TagStatsPage } from './views/TagStatsPage.tsx';
import { TagsPage } from './views/TagsPage.tsx';
import { WebhooksPage } from './views/WebhooksPage.tsx';

/**
 * The signed-in dashboard: a header with the navigation, the plan's usage, the workspace (a
 * person's switcher), and the view of the address. A viewer sees no control that writes.
 */
export function Dashboard({
  session,
  notice,
  onSignOut,
  onPersonChanged,
}: {
  session: Session;
  notice: string | undefined;
  onSignOut: () => void;
  /** A person switched workspace (the new `me`), or left it (undefined: signed out there). */
  onPersonChanged: (me: Me | undefined) => void;
}) {
  const { client } = session;
  const me = session.kind === 'person' ? session.me : undefined;
  const account = useAccount(client);
  useInAppLinks();
  return (
    <ShortlinksProvider client={client} readOnly={me?.workspace.role === 'viewer'}>
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
          {me ? (
            <>
              <NavLink href={paths.members}>Members</NavLink>
              <NavLink href={paths.sessions}>Sessions</NavLink>
              <NavLink href={paths.security}>Security</NavLink>
            </>
          ) : null}
          <NavLink href={paths.webhooks}>Webhooks</NavLink>
          {managesDomains(me) ? <NavLink href={paths.domains}>Domains</NavLink> : null}
          <NavLink href={paths.keys}>API keys</NavLink>
          {offersAuditLog(me) ? <NavLink href={paths.audit}>Audit log</NavLink> : null}
        </nav>
        {me ? <WorkspaceSwitcher me={me} onSwitched={onPersonChanged} /> : null}
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
        <Views account={account} me={me} session={session} onPersonChanged={onPersonChanged} />
      </main>
    </ShortlinksProvider>
  );
}

function Views({
  account,
  me,
  session,
  onPersonChanged,
}: {
  account: AccountState;
  me: Me | undefined;
  session: Session;
  onPersonChanged: (me: Me | undefined) => void;
}) {
  // A person makes keys with their session; a dashboard signed in with a key, with that key.
  const sessionKey = session.kind === 'key' ? session.key : undefined;
  const calls = useMemo(() => keysCalls(sessionKey === undefined ? { person: true } : { key: sessionKey }), [sessionKey]);
  const auditLog = useMemo(() => readAuditLog(session.client), [session.client]);
  // A link's page shows its history to those offered the audit log.
  const history = offersAuditLog(me) ? auditLog : undefined;
  return (
    <Switch>
      {me ? (
        <Route path={paths.members}>
          <MembersPage me={me} onLeft={() => onPersonChanged(undefined)} />
        </Route>
      ) : null}
      {me ? (
        <Route path={paths.sessions}>
          <SessionsPage onEndedHere={() => onPersonChanged(undefined)} />
        </Route>
      ) : null}
      {me ? (
        <Route path={paths.security}>
          <SecurityPage />
        </Route>
      ) : null}
      <Route path={paths.links}>
        <LinksPage account={account} />
      </Route>
      <Route path="/links/:id">{(params) => <LinkStatsPage id={params.id} account={account} history={history} />}</Route>
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
      {managesDomains(me) ? (
        <Route path={paths.domains}>
          <DomainsPage />
        </Route>
      ) : null}
      <Route path={paths.keys}>
        {/* A key's own role is not known here (an operator's key acts as owner); the server refuses beyond it. */}
        <KeysPage calls={calls} role={me?.workspace.role ?? 'owner'} />
      </Route>
      {/* Open to every role: a member or a viewer who comes here reads the server's refusal (views/AuditLogPage.tsx). */}
      <Route path={paths.audit}>
        <AuditLogPage read={auditLog} />
      </Route>
      <Route path={paths.connect}>
        <ConnectPage me={me} />
      </Route>
      <Route>
        <NotFoundPage />
      </Route>
    </Switch>
  );
}

/**
 * Whether the domains page is offered: to admins and owners, and to a key (a key made by the CLI
 * acts as owner). Members and viewers neither see it nor reach it; the server refuses them anyway.
 */
function managesDomains(me: Me | undefined): boolean {
  return me === undefined || me.workspace.role === 'owner' || me.workspace.role === 'admin';
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

/** The workspace a person works in, and the others they belong to: choosing one moves this session there. */
function WorkspaceSwitcher({ me, onSwitched }: { me: Me; onSwitched: (me: Me) => void }) {
  return (
    <label className="workspace-switcher">
      <span className="visually-hidden">Workspace</span>
      <select
        aria-label="Workspace"
        value={me.workspace.id}
        disabled={me.workspaces.length < 2}
        onChange={async (event) => onSwitched(await people.switchWorkspace(event.target.value))}
      >
        {me.workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name} ({workspace.role})
          </option>
        ))}
      </select>
    </label>
  );
}
