import type { RoleName } from '@shortlinks/contract';
import { ErrorBanner } from '@shortlinks/ui';
import { useEffect, useState } from 'react';
import { useDocumentTitle } from '../../useDocumentTitle.ts';
import { signedIn } from '../session-calls.ts';
import { InvitationsPanel } from './InvitationsPanel.tsx';

/**
 * `/app/invitations`: the invitations panel on a page of its own, for a person signed in with the
 * session cookie. The members page shows the same panel ({@link InvitationsPanel}).
 */
export function InvitationsPage() {
  useDocumentTitle('Invitations');
  const [me, setMe] = useState<{ role: RoleName; csrfToken: string; workspace: string } | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    signedIn()
      .then((person) => setMe(person && { role: person.workspace.role, csrfToken: person.csrf_token, workspace: person.workspace.name }))
      .catch((failure) => setError((failure as Error).message));
  }, []);
  if (error) return <ErrorBanner message={error} />;
  if (me === undefined) return <div className="spinner" role="status" aria-label="Loading" />;
  if (me === null) {
    return (
      <main className="sign-in">
        <p>
          Sign in to the dashboard first. <a href="/app/">Sign in</a>
        </p>
      </main>
    );
  }
  return (
    <main className="app-main">
      <h1>Invitations to {me.workspace}</h1>
      {me.role === 'owner' || me.role === 'admin' ? (
        <InvitationsPanel role={me.role} csrfToken={me.csrfToken} />
      ) : (
        <p className="muted">Only admins and owners invite people.</p>
      )}
    </main>
  );
}
