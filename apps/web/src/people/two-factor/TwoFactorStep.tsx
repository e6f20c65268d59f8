import type { Me } from '@shortlinks/contract';
import { Field } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { currentCsrfToken, people } from '../../session/people-api.ts';
import { CallFailed, sessionMutation } from '../session-calls.ts';

/**
 * The second step of a sign-in with two-factor on (docs/accounts.md, "Two-factor sign-in"): the
 * password passed, and no session exists until this code does. The pending sign-in lives in an
 * HttpOnly cookie for 5 minutes; when it ends, the person starts again with the password.
 */
export function TwoFactorStep({ onSignedIn, onRestart }: { onSignedIn: (me: Me) => void; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [expired, setExpired] = useState(false);
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecking(true);
    setError(undefined);
    try {
      await sessionMutation<Me>('twoFactor.signIn', { code }, currentCsrfToken());
      onSignedIn(await people.me());
    } catch (caught) {
      setChecking(false);
      setCode('');
      if (caught instanceof CallFailed && caught.code === 'TWO_FACTOR_EXPIRED') setExpired(true);
      setError((caught as Error).message);
    }
  };

  if (expired) {
    return (
      <div className="banner error" role="alert">
        {error}{' '}
        <button type="button" className="button small" onClick={onRestart}>
          Sign in again
        </button>
      </div>
    );
  }
  return (
    <form method="post" onSubmit={submit} noValidate aria-label="Two-factor code">
      <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
      <Field label="Code" error={error}>
        {(props) => (
          <input
            {...props}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button primary wide" disabled={checking}>
        {checking ? 'Checking…' : 'Verify'}
      </button>
    </form>
  );
}
