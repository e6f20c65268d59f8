import type { Me } from '@shortlinks/contract';
import { Field } from '@shortlinks/ui';
import { type FormEvent, useEffect, useState } from 'react';
import { PeopleError, people } from './session/people-api.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';

/**
 * A one-time link's page: `setup` makes the first owner of a workspace (the link `npm start`
 * prints), `password` sets a person's password (`pnpm shortlinks user create|reset-password`). The
 * link's secret is in the address's fragment, which the browser never sends; it goes to the server
 * only in the calls' data. Used, the person is signed in.
 */
export function PasswordLinkPage({ purpose, onSignedIn }: { purpose: 'setup' | 'password'; onSignedIn: (me: Me) => void }) {
  useDocumentTitle(purpose === 'setup' ? 'Create the owner' : 'Set your password');
  const token = window.location.hash.slice(1);
  const [link, setLink] = useState<{ email: string | null; workspace: string | null }>();
  const [problem, setProblem] = useState<string>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<{ field?: string | undefined; message: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    people
      .passwordLink(token)
      .then(setLink, (caught) =>
        setProblem(caught instanceof PeopleError ? caught.message : 'This link cannot be checked now. Try again.'),
      );
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      onSignedIn(await people.usePasswordLink(token, password, purpose === 'setup' ? email : undefined));
    } catch (caught) {
      setSaving(false);
      setError(
        caught instanceof PeopleError ? { field: caught.field, message: caught.message } : { message: 'Something went wrong. Try again.' },
      );
    }
  };

  return (
    <main className="sign-in">
      <h1 className="brand-mark">Shortlinks</h1>
      <h2>{purpose === 'setup' ? 'Create the owner' : 'Set your password'}</h2>
      {problem ? (
        <div className="banner error" role="alert">
          {problem}
        </div>
      ) : null}
      {link ? (
        <form method="post" onSubmit={submit} noValidate aria-label={purpose === 'setup' ? 'Create the owner' : 'Set your password'}>
          <p className="muted">
            {purpose === 'setup'
              ? `You will own the workspace ${link.workspace ?? ''}: its links, its people and its settings.`
              : `For ${link.email ?? 'your account'}. Your other sessions end when it is set.`}
          </p>
          {error && error.field !== 'email' && error.field !== 'password' ? (
            <div className="banner error" role="alert">
              {error.message}
            </div>
          ) : null}
          {purpose === 'setup' ? (
            <Field label="Email" error={error?.field === 'email' ? error.message : undefined}>
              {(props) => (
                <input
                  {...props}
                  name="email"
                  type="email"
                  autoComplete="username"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                />
              )}
            </Field>
          ) : null}
          <Field
            label="New password"
            error={error?.field === 'password' ? error.message : undefined}
            hint="10 to 256 characters; a common password is refused. A few words you will remember make a good one."
          >
            {(props) => (
              <input
                {...props}
                name="new_password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button primary wide" disabled={saving}>
            {purpose === 'setup' ? 'Create the owner and sign in' : 'Set the password and sign in'}
          </button>
        </form>
      ) : problem ? null : (
        <div className="spinner" role="status" aria-label="Checking the link" />
      )}
    </main>
  );
}
