import type { Session } from '@shortlinks/contract';
import { ErrorBanner } from '@shortlinks/ui';
import { useCallback, useEffect, useState } from 'react';
import { PeopleError, people } from '../session/people-api.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** Where you are signed in: each live session (this one marked), ended one by one or all at once. */
export function SessionsPage({ onEndedHere }: { onEndedHere: () => void }) {
  useDocumentTitle('Sessions');
  const [sessions, setSessions] = useState<Session[]>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    people.sessions().then(setSessions, (caught) => setError(caught instanceof PeopleError ? caught.message : 'Try again.'));
  }, []);
  useEffect(load, [load]);

  return (
    <>
      <div className="page-head">
        <h1>Sessions</h1>
        <div className="row page-actions">
          <button
            type="button"
            className="button danger"
            onClick={async () => {
              await people.signOutEverywhere().catch(() => undefined);
              onEndedHere();
            }}
          >
            Sign out everywhere
          </button>
        </div>
      </div>
      {error ? <ErrorBanner message={error} /> : null}
      {sessions ? (
        <ul className="panel sessions">
          {sessions.map((session) => (
            <li key={session.id} className="row" data-testid="session">
              <span>
                {session.user_agent ?? 'Unknown browser'} · {session.ip ?? 'unknown address'} · last used{' '}
                {new Date(session.last_seen_at).toLocaleString()}
                {session.current ? <strong> (this browser)</strong> : null}
              </span>
              <button
                type="button"
                className="button small"
                onClick={async () => {
                  await people.endSession(session.id).catch(() => undefined);
                  if (session.current) onEndedHere();
                  else load();
                }}
              >
                End
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <div className="spinner" role="status" aria-label="Loading sessions" />
      )}
    </>
  );
}
