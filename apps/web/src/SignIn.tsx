import type { ShortlinksClient } from '@shortlinks/client';
import type { Me } from '@shortlinks/contract';
import { Field } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { SsoSignIn } from './people/sso/SsoSignIn.tsx';
import { TwoFactorStep } from './people/two-factor/TwoFactorStep.tsx';
import { PeopleError, people } from './session/people-api.ts';
import { signIn } from './session/sign-in.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';

/**
 * Sign in with email and password (the session cookie), or with an API key. Neither form submits
 * itself (no action, POST, default prevented): the password goes to the server only in the body of
 * `auth.signIn`, the key only in the Authorization header of the check, never into a URL.
 */
export function SignIn({
  notice,
  onSignedIn,
  onPersonSignedIn,
  onRefused,
}: {
  notice: string | undefined;
  onSignedIn: (client: ShortlinksClient, key: string, remember: boolean) => void;
  onPersonSignedIn: (me: Me) => void;
  onRefused: () => void;
}) {
  useDocumentTitle('Sign in');
  return (
    <main className="sign-in">
      <h1 className="brand-mark">Shortlinks</h1>
      {notice ? (
        <div className="banner info" role="status">
          {notice}
        </div>
      ) : null}
      <PasswordSignIn onSignedIn={onPersonSignedIn} />
      <SsoSignIn />
      <h2 className="sign-in-or">Or use an API key</h2>
      <KeySignIn onSignedIn={onSignedIn} onRefused={onRefused} />
    </main>
  );
}

/** Email and password: the server answers the same for an unknown email and a wrong password. */
function PasswordSignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const [secondStep, setSecondStep] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecking(true);
    setError(undefined);
    try {
      onSignedIn(await people.signIn(email, password));
    } catch (caught) {
      setChecking(false);
      if (caught instanceof PeopleError && caught.code === 'TWO_FACTOR_REQUIRED') return setSecondStep(true);
      setError(caught instanceof PeopleError ? caught.message : 'Something went wrong while signing in. Try again.');
    }
  };

  if (secondStep) return <TwoFactorStep onSignedIn={onSignedIn} onRestart={() => setSecondStep(false)} />;
  return (
    <form method="post" onSubmit={submit} noValidate aria-label="Sign in as a person">
      {error ? (
        <div className="banner error" role="alert">
          {error}
        </div>
      ) : null}
      <Field label="Email">
        {(props) => (
          <input
            {...props}
            name="email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </Field>
      <Field label="Password">
        {(props) => (
          <input
            {...props}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button primary wide" disabled={checking}>
        {checking ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** An API key, as before people existed: checked with a real call, kept for the tab or the device. */
function KeySignIn({
  onSignedIn,
  onRefused,
}: {
  onSignedIn: (client: ShortlinksClient, key: string, remember: boolean) => void;
  onRefused: () => void;
}) {
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
    <>
      <p className="muted">With an API key of a workspace, to manage its links and see their clicks.</p>
      {error?.field === 'form' ? (
        <div className="banner error" role="alert">
          {error.message}
        </div>
      ) : null}
      <form method="post" onSubmit={submit} noValidate aria-label="Key sign-in">
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
          {checking ? 'Checking…' : 'Sign in with the key'}
        </button>
      </form>
    </>
  );
}
