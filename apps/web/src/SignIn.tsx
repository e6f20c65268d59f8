import type { ShortlinksClient } from '@shortlinks/client';
import { Field } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { signIn } from './session/sign-in.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';

/**
 * Sign in with an API key. The form never submits itself (no action, POST, default prevented): the
 * key goes to the server only in the Authorization header of the check, never into a URL.
 */
export function SignIn({
  notice,
  onSignedIn,
  onRefused,
}: {
  notice: string | undefined;
  onSignedIn: (client: ShortlinksClient, key: string, remember: boolean) => void;
  onRefused: () => void;
}) {
  useDocumentTitle('Sign in');
  const [key, setKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<{ field: 'key' | 'form'; message: string }>();
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecking(true);
    setError(undefined);
    const outcome = await signIn(window.location.origin, key, onRefused);
    setChecking(false);
    if (outcome.ok) onSignedIn(outcome.client, key.trim(), remember);
    else setError(outcome);
  };

  return (
    <main className="sign-in">
      <h1 className="brand-mark">Shortlinks</h1>
      <p className="muted">Sign in with an API key of your account to manage its links and see their clicks.</p>
      {notice && !error ? (
        <div className="banner info" role="status">
          {notice}
        </div>
      ) : null}
      {error?.field === 'form' ? (
        <div className="banner error" role="alert">
          {error.message}
        </div>
      ) : null}
      <form method="post" onSubmit={submit} noValidate aria-label="Sign in">
        <Field
          label="API key"
          error={error?.field === 'key' ? error.message : undefined}
          hint="The key the server printed when it first started (slk_…), or one made with: pnpm shortlinks key create"
        >
          {(props) => (
            <input
              {...props}
              name="api_key"
              type="password"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              required
              value={key}
              onChange={(event) => setKey(event.target.value)}
            />
          )}
        </Field>
        <label className="check">
          <input type="checkbox" name="remember" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          Remember on this device
        </label>
        <p className="hint muted">
          {remember
            ? 'The key stays in this browser until you sign out. Only do this on a device that is yours alone.'
            : 'The key is forgotten when you close this tab.'}
        </p>
        <button type="submit" className="button primary wide" disabled={checking}>
          {checking ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
