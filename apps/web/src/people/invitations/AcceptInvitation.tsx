import '../people.css';
import type { InvitationOffer } from '@shortlinks/contract';
import { ErrorBanner, Field } from '@shortlinks/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { useDocumentTitle } from '../../useDocumentTitle.ts';
import { CallFailed, sessionMutation, sessionQuery, signedIn } from '../session-calls.ts';

/**
 * The page an invitation link opens (`/app/invitation#<token>`). The token is in the fragment,
 * which no request and no `Referer` carries; the page reads it once and takes it out of the address
 * bar (and so out of the history). A new person chooses a password; a person who has an account
 * accepts signed in, or with their password.
 */
export function AcceptInvitation() {
  useDocumentTitle('Invitation');
  const [token] = useState(() => window.location.hash.slice(1));
  const [offer, setOffer] = useState<InvitationOffer>();
  const [me, setMe] = useState<Awaited<ReturnType<typeof signedIn>>>(null);
  const [refusal, setRefusal] = useState<string>();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ field: string | null; message: string }>();
  const [accepting, setAccepting] = useState(false);
  const [joined, setJoined] = useState<{ workspace: string; role: string }>();

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
    if (!token) {
      setRefusal('This invitation link is incomplete: open the whole link you were given.');
      return;
    }
    Promise.all([sessionQuery<InvitationOffer>('invitations.describe', { token }), signedIn()])
      .then(([found, person]) => {
        setOffer(found);
        setMe(person);
      })
      .catch((failure) => setRefusal((failure as Error).message));
  }, [token]);

  const signedInAsInvitee = me !== null && offer !== undefined && me.user.email.toLowerCase() === offer.email.toLowerCase();
  const signedInAsOther = me !== null && offer !== undefined && !signedInAsInvitee;

  const accept = async (event: FormEvent) => {
    event.preventDefault();
    setAccepting(true);
    setError(undefined);
    try {
      const answer = await sessionMutation<{ workspace: { name: string; role: string } }>(
        'invitations.accept',
        signedInAsInvitee ? { token } : { token, password },
        me?.csrf_token,
      );
      setJoined({ workspace: answer.workspace.name, role: answer.workspace.role });
    } catch (failure) {
      const field = failure instanceof CallFailed ? failure.field : null;
      if (failure instanceof CallFailed && failure.status === 410) setRefusal(failure.message);
      else setError({ field, message: (failure as Error).message });
    } finally {
      setAccepting(false);
    }
  };

  return (
    <main className="sign-in accept-invitation">
      <h1 className="brand-mark">Shortlinks</h1>
      {refusal ? <ErrorBanner message={refusal} /> : null}
      {!refusal && !offer ? <div className="spinner" role="status" aria-label="Opening the invitation" /> : null}
      {joined ? (
        <div className="banner info" role="status">
          <p>
            You joined <strong>{joined.workspace}</strong> as {joined.role}.
          </p>
          <p>
            <a className="button primary" href="/app/">
              Open the dashboard
            </a>
          </p>
        </div>
      ) : null}
      {offer && !refusal && !joined ? (
        <>
          <h2>Join {offer.workspace}</h2>
          <p>
            {offer.invited_by ?? 'An administrator'} invited <strong>{offer.email}</strong> to the workspace{' '}
            <strong>{offer.workspace}</strong> as {offer.role}. The invitation expires on {new Date(offer.expires_at).toLocaleString()}.
          </p>
          {signedInAsOther ? (
            <div className="banner error" role="alert">
              You are signed in as {me?.user.email}. This invitation is for {offer.email}: sign out first, then open the link again.
            </div>
          ) : (
            <form onSubmit={accept} noValidate aria-label="Accept the invitation">
              {signedInAsInvitee ? (
                <p className="muted">You are signed in as {me?.user.email}.</p>
              ) : (
                <Field
                  label={offer.existing_user ? 'Your password' : 'Choose a password'}
                  error={error?.field === 'password' ? error.message : undefined}
                  hint={offer.existing_user ? `The password of ${offer.email}` : '10 to 256 characters, not a common one'}
                >
                  {(props) => (
                    <input
                      {...props}
                      type="password"
                      name="password"
                      autoComplete={offer.existing_user ? 'current-password' : 'new-password'}
                      required
                      value={password}
                      onChange={(event) => setPassword(event.target.value)}
                    />
                  )}
                </Field>
              )}
              {error && error.field !== 'password' ? (
                <div className="banner error" role="alert">
                  {error.message}
                </div>
              ) : null}
              <button type="submit" className="button primary wide" disabled={accepting}>
                {accepting ? 'Joining…' : 'Accept the invitation'}
              </button>
            </form>
          )}
        </>
      ) : null}
    </main>
  );
}
