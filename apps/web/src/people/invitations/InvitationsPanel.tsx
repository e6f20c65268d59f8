import '../people.css';
import type { CreatedInvitation, InvitationView, RoleName } from '@shortlinks/contract';
import { ErrorBanner, Field } from '@shortlinks/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CallFailed, sessionMutation, sessionQuery } from '../session-calls.ts';

const ROLE_ORDER: RoleName[] = ['owner', 'admin', 'member', 'viewer'];

/** The roles someone of `role` may invite: their own and below (docs/accounts.md, "Invitations"). */
export function invitableRoles(role: RoleName): RoleName[] {
  return ROLE_ORDER.slice(ROLE_ORDER.indexOf(role));
}

/**
 * Inviting people and the pending invitations, for the members page: shown to admins and owners
 * only (the server refuses the others anyway). The link of a new invitation is shown once, to copy
 * and hand over; with SMTP configured it was mailed too.
 */
export function InvitationsPanel({ role, csrfToken }: { role: RoleName; csrfToken: string }) {
  const [pending, setPending] = useState<InvitationView[]>();
  const [mails, setMails] = useState(false);
  const [loadError, setLoadError] = useState<string>();
  const may = role === 'owner' || role === 'admin';

  const load = useCallback(async () => {
    try {
      const answer = await sessionQuery<{ invitations: InvitationView[]; mails: boolean }>('invitations.list');
      setPending(answer.invitations);
      setMails(answer.mails);
      setLoadError(undefined);
    } catch (error) {
      setLoadError((error as Error).message);
    }
  }, []);
  useEffect(() => {
    if (may) void load();
  }, [may, load]);

  if (!may) return null;
  return (
    <section className="panel invitations" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invite people</h2>
      <InviteForm role={role} csrfToken={csrfToken} mails={mails} onInvited={load} />
      <h3>Pending invitations</h3>
      {loadError ? <ErrorBanner message={loadError} onRetry={load} /> : null}
      {pending === undefined && !loadError ? <div className="spinner" role="status" aria-label="Loading invitations" /> : null}
      {pending?.length === 0 ? <p className="muted">No pending invitations.</p> : null}
      {pending && pending.length > 0 ? (
        <ul className="invitation-list" aria-label="Pending invitations">
          {pending.map((invitation) => (
            <PendingInvitation key={invitation.id} invitation={invitation} csrfToken={csrfToken} onRevoked={load} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function InviteForm({ role, csrfToken, mails, onInvited }: { role: RoleName; csrfToken: string; mails: boolean; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [invitedRole, setInvitedRole] = useState<RoleName>('member');
  const [error, setError] = useState<{ field: string | null; message: string }>();
  const [sending, setSending] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation>();
  const [copied, setCopied] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setError(undefined);
    setCopied(false);
    try {
      const answer = await sessionMutation<CreatedInvitation>('invitations.create', { email, role: invitedRole }, csrfToken);
      setCreated(answer);
      setEmail('');
      onInvited();
    } catch (failure) {
      setError({ field: failure instanceof CallFailed ? failure.field : null, message: (failure as Error).message });
    } finally {
      setSending(false);
    }
  };

  const copy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.url).catch(() => undefined);
    setCopied(true);
  };

  return (
    <>
      <form className="invite-form" onSubmit={submit} noValidate aria-label="Invite someone">
        <Field label="Email" error={error?.field === 'email' ? error.message : undefined}>
          {(props) => (
            <input
              {...props}
              type="email"
              name="email"
              autoComplete="off"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
        <Field label="Role" error={error?.field === 'role' ? error.message : undefined}>
          {(props) => (
            <select {...props} name="role" value={invitedRole} onChange={(event) => setInvitedRole(event.target.value as RoleName)}>
              {invitableRoles(role).map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button primary" disabled={sending}>
          {sending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {error && error.field !== 'email' && error.field !== 'role' ? <ErrorBanner message={error.message} /> : null}
      {created ? (
        <div className="banner info invitation-created" role="status">
          <p>
            {created.email === 'sent'
              ? `Invitation mailed to ${created.invitation.email}. You can also hand over this link:`
              : created.email === 'failed'
                ? `The mail to ${created.invitation.email} could not be sent (${created.email_error}). Hand over this link instead:`
                : `Hand this link over to ${created.invitation.email}${mails ? '' : ' (this server sends no mail)'}:`}
          </p>
          <p>
            <input
              className="invitation-link"
              aria-label="Invitation link"
              readOnly
              value={created.url}
              onFocus={(e) => e.target.select()}
            />{' '}
            <button type="button" className="button small" onClick={copy}>
              {copied ? 'Copied' : 'Copy link'}
            </button>
          </p>
          <p className="muted small">It works once, for 7 days. It is shown only now.</p>
        </div>
      ) : null}
    </>
  );
}

function PendingInvitation({ invitation, csrfToken, onRevoked }: { invitation: InvitationView; csrfToken: string; onRevoked: () => void }) {
  const [error, setError] = useState<string>();
  const revoke = async () => {
    try {
      await sessionMutation('invitations.revoke', { id: invitation.id }, csrfToken);
      onRevoked();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  return (
    <li className="invitation-row">
      <span>
        <strong>{invitation.email}</strong> as {invitation.role}
        <span className="muted small">
          {' '}
          · expires {new Date(invitation.expires_at).toLocaleDateString()}
          {invitation.invited_by ? ` · invited by ${invitation.invited_by}` : ''}
        </span>
      </span>
      <button type="button" className="button small" onClick={revoke} aria-label={`Revoke the invitation of ${invitation.email}`}>
        Revoke
      </button>
      {error ? (
        <span className="error" role="alert">
          {error}
        </span>
      ) : null}
    </li>
  );
}
