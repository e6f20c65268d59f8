import type { AuditEntry } from '@shortlinks/contract';
import { ErrorBanner } from '@shortlinks/ui';
import { useCallback, useEffect, useState } from 'react';
import { AuditTable } from './AuditTable.tsx';
import { failureText, isMissing, isRefused, type ReadAuditLog } from './audit-calls.ts';

const PER_PAGE = 10;

type History =
  | { state: 'loading'; entries: AuditEntry[]; total?: number }
  | { state: 'shown'; entries: AuditEntry[]; total: number }
  | { state: 'failed'; entries: AuditEntry[]; total?: number; message: string }
  | { state: 'hidden' };

/**
 * A link's history on its page: the audit log's entries for the link (`resource_id` = its id),
 * newest first, ten at a time with Show more. Offered to those who may read the audit log; a
 * caller the server refuses (a key without `audit.read`), or a server without the audit log, shows
 * no section at all: the link's page is about the link first.
 */
export function LinkHistory({ read, linkId, version }: { read: ReadAuditLog; linkId: string; version: number }) {
  const [history, setHistory] = useState<History>({ state: 'loading', entries: [] });
  const [pages, setPages] = useState(1);
  const [attempt, setAttempt] = useState(0);

  // A new link, or the link saved again: its history from the top.
  useEffect(() => {
    void version;
    setPages(1);
    setHistory({ state: 'loading', entries: [] });
  }, [linkId, version]);

  useEffect(() => {
    void attempt;
    let current = true;
    read({ resource_id: linkId, page: pages, per_page: PER_PAGE }).then(
      (page) => {
        if (!current) return;
        setHistory((before) => {
          const kept = before.state === 'hidden' ? [] : before.entries.slice(0, (pages - 1) * PER_PAGE);
          return { state: 'shown', entries: [...kept, ...page.entries], total: page.total };
        });
      },
      (caught) => {
        if (!current) return;
        setHistory((before) =>
          isRefused(caught) || isMissing(caught) || before.state === 'hidden'
            ? { state: 'hidden' }
            : { state: 'failed', entries: before.entries, total: before.total, message: failureText(caught) },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [read, linkId, pages, version, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  if (history.state === 'hidden') return null;
  const more = history.total !== undefined && history.entries.length < history.total;
  return (
    <section className="panel link-history" aria-labelledby="link-history-heading">
      <h2 id="link-history-heading">History</h2>
      {history.state === 'failed' ? <ErrorBanner message={history.message} onRetry={retry} /> : null}
      {history.entries.length > 0 ? (
        <AuditTable entries={history.entries} label="History" showResource={false} />
      ) : history.state === 'shown' ? (
        <p className="muted">No changes recorded for this link.</p>
      ) : history.state === 'loading' ? (
        <div className="spinner" role="status" aria-label="Loading the history" />
      ) : null}
      {more ? (
        <button
          type="button"
          className="button small"
          disabled={history.state === 'loading'}
          onClick={() => {
            setHistory((before) => (before.state === 'hidden' ? before : { ...before, state: 'loading' }));
            setPages((n) => n + 1);
          }}
        >
          Show more
        </button>
      ) : null}
    </section>
  );
}
