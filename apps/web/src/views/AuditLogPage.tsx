import type { AuditActor, AuditLogPage as LogPage } from '@shortlinks/contract';
import { ErrorBanner } from '@shortlinks/ui';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { AuditFilters } from '../audit/AuditFilters.tsx';
import { AuditPager } from '../audit/AuditPager.tsx';
import { AuditRefused } from '../audit/AuditRefused.tsx';
import { AuditTable } from '../audit/AuditTable.tsx';
import type { ReadAuditLog } from '../audit/audit-calls.ts';
import { type AuditView, auditLogQuery, auditQueryString, auditViewOf, isFiltered } from '../audit/audit-filters.ts';
import { useAuditPage } from '../audit/useAuditPage.ts';
import { paths } from '../routes.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/**
 * The workspace's audit log (docs/accounts.md, "The audit log in the dashboard"): who changed what
 * and when, newest first, filtered by actor, resource and action and paged. What it shows is in the
 * address (`/app/audit?actor_id=…&action=…&page=…`), so a filtered view can be shared and reloaded.
 * Admins and owners read it; anyone else gets the server's refusal in words.
 */
export function AuditLogPage({ read }: { read: ReadAuditLog }) {
  useDocumentTitle('Audit log');
  const view = auditViewOf(useSearch());
  const [, navigate] = useLocation();
  const { shown, retry } = useAuditPage(read, auditLogQuery(view));
  const show = (change: Partial<AuditView>) => navigate(`${paths.audit}${auditQueryString({ ...view, page: 1, ...change })}`);
  const page = shown.state === 'found' ? shown.page : shown.state === 'loading' || shown.state === 'failed' ? shown.last : undefined;
  const actors = useActorsSeen(page);

  const head = (
    <div className="page-head">
      <h1>Audit log</h1>
    </div>
  );
  if (shown.state === 'refused') {
    return (
      <>
        {head}
        <AuditRefused message={shown.message} />
      </>
    );
  }
  return (
    <>
      {head}
      <p className="muted audit-intro">
        Every change to links, tags, keys, members, invitations, domains and webhooks: who made it, when and from where.
      </p>
      <AuditFilters view={view} actors={actors} onFilter={show} />
      {shown.state === 'failed' ? <ErrorBanner message={shown.message} onRetry={retry} /> : null}
      {page === undefined ? (
        shown.state === 'loading' ? (
          <div className="empty">
            <div className="spinner" style={{ margin: '0 auto' }} role="status" aria-label="Loading the audit log" />
          </div>
        ) : null
      ) : page.entries.length === 0 ? (
        <div className="empty" data-testid="audit-empty">
          {isFiltered(view) ? 'No entries match these filters.' : 'No changes recorded yet.'}
        </div>
      ) : (
        <section className="panel audit-panel" aria-busy={shown.state === 'loading'}>
          <AuditTable entries={page.entries} label="Audit log" onPickActor={(actor) => show({ actorId: actor.id })} />
        </section>
      )}
      {page && page.total > 0 ? (
        <AuditPager
          page={view.page}
          perPage={view.perPage}
          total={page.total}
          onPage={(next) => show({ page: next })}
          onPerPage={(perPage) => show({ perPage })}
        />
      ) : null}
    </>
  );
}

/** Every actor of the entries shown since the page opened, first seen first: the actor filter's suggestions. */
function useActorsSeen(page: LogPage | undefined): AuditActor[] {
  const [seen, setSeen] = useState<ReadonlyMap<string, AuditActor>>(() => new Map());
  useEffect(() => {
    if (!page) return;
    setSeen((before) => {
      if (page.entries.every((entry) => before.has(entry.actor.id))) return before;
      const next = new Map(before);
      for (const { actor } of page.entries) if (!next.has(actor.id)) next.set(actor.id, actor);
      return next;
    });
  }, [page]);
  return useMemo(() => [...seen.values()], [seen]);
}
