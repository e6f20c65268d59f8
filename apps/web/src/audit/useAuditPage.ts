import type { AuditLogPage, ListAuditLogQuery } from '@shortlinks/contract';
import { useCallback, useEffect, useState } from 'react';
import { failureText, isRefused, type ReadAuditLog } from './audit-calls.ts';

/** A page of the audit log as a view shows it. */
export type AuditPageState =
  | { state: 'loading'; last?: AuditLogPage }
  | { state: 'found'; page: AuditLogPage }
  | { state: 'refused'; message: string }
  | { state: 'failed'; message: string; last?: AuditLogPage };

/**
 * Reads one page of the log for `query`, again when it changes or on `retry`. While the next page
 * loads, the last one stays (`last`), so the table does not jump.
 */
export function useAuditPage(read: ReadAuditLog, query: ListAuditLogQuery) {
  const [shown, setShown] = useState<AuditPageState>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The query as text: a new object with the same filters is the same page.
  const asked = JSON.stringify(query);

  useEffect(() => {
    // `attempt` is read so that Try again reads anew.
    void attempt;
    let current = true;
    setShown((before) => ({ state: 'loading', last: before.state === 'found' ? before.page : undefined }));
    read(JSON.parse(asked) as ListAuditLogQuery).then(
      (page) => current && setShown({ state: 'found', page }),
      (caught) => {
        if (!current) return;
        setShown(
          isRefused(caught) ? { state: 'refused', message: failureText(caught) } : { state: 'failed', message: failureText(caught) },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [read, asked, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { shown, retry };
}
