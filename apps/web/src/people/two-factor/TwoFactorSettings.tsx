import type { TwoFactorEnrolmentView, TwoFactorStatusView } from '@shortlinks/contract';
import { ErrorBanner, Field } from '@shortlinks/ui';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { currentCsrfToken } from '../../session/people-api.ts';
import { CallFailed, sessionMutation, sessionQuery, signedIn } from '../session-calls.ts';

/**
 * Two-factor sign-in on the Security page: turning it on (the QR code and the secret, a first
 * code, then the recovery codes shown once), off (a code or the password), a new set of recovery
 * codes (a code or the password; the old ones stop working), and for an owner the
 * workspace's requirement.
 */
export function TwoFactorSettings() {
  const [status, setStatus] = useState<TwoFactorStatusView>();
  const [owner, setOwner] = useState(false);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolmentView>();
  const [recovery, setRecovery] = useState<{ codes: string[]; renewed: boolean }>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [proof, setProof] = useState({ code: '', password: '' });
  // `form` says which form's fields an error belongs to: two of them ask for a code or the password.
  const [error, setError] = useState<{ field: string | null; message: string; form?: 'renew' }>();

  const load = useCallback(async () => {
    try {
      setStatus(await sessionQuery<TwoFactorStatusView>('twoFactor.status'));
      const me = await signedIn();
      setOwner(me?.workspace.role === 'owner');
    } catch (caught) {
      setError({ field: null, message: (caught as Error).message });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (work: () => Promise<void>, form?: 'renew') => {
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError({
        field: caught instanceof CallFailed ? caught.field : null,
        message: (caught as Error).message,
        ...(form ? { form } : {}),
      });
    }
  };
  const fieldError = (field: string, form?: 'renew') => (error?.field === field && error.form === form ? error.message : undefined);

  const start = () => run(async () => setEnrolment(await sessionMutation('twoFactor.enrol', {}, currentCsrfToken())));
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const answer = await sessionMutation<{ recovery_codes: string[] }>('twoFactor.confirm', { code }, currentCsrfToken());
      setRecovery({ codes: answer.recovery_codes, renewed: false });
      setEnrolment(undefined);
      setCode('');
      await load();
    });
  };
  const disable = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      await sessionMutation('twoFactor.disable', code ? { code } : { password }, currentCsrfToken());
      setCode('');
      setPassword('');
      setRecovery(undefined);
      await load();
    });
  };
  const renewCodes = (event: FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const body = proof.code ? { code: proof.code } : { password: proof.password };
      const answer = await sessionMutation<{ recovery_codes: string[] }>('twoFactor.recoveryCodes', body, currentCsrfToken());
      setRecovery({ codes: answer.recovery_codes, renewed: true });
      setProof({ code: '', password: '' });
      await load();
    }, 'renew');
  };
  const require = (required: boolean) =>
    run(async () => {
      await sessionMutation('twoFactor.require', { required }, currentCsrfToken());
      await load();
    });

  return (
    <section className="panel two-factor" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor sign-in</h2>
      {error && !error.field ? <ErrorBanner message={error.message} /> : null}
      {status?.required_here && !status.enabled ? (
        <div className="banner error" role="alert">
          This workspace requires two-factor sign-in: turn it on to continue.
        </div>
      ) : null}
      {recovery ? (
        <div className="banner ok" role="status">
          <p>
            {recovery.renewed ? 'New recovery codes: the old ones no longer work.' : 'Two-factor sign-in is on.'} Keep these recovery codes
            somewhere safe: each works once, and they are shown only now.
          </p>
          <ul className="recovery-codes" aria-label="Recovery codes">
            {recovery.codes.map((entry) => (
              <li key={entry}>
                <code>{entry}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {status && !status.enabled && !enrolment ? (
        <>
          <p>Off. With it on, signing in asks for a code from an authenticator app after your password.</p>
          <button type="button" className="button primary" onClick={start}>
            Turn on two-factor sign-in
          </button>
        </>
      ) : null}
      {enrolment ? (
        <form method="post" onSubmit={confirm} noValidate aria-label="Confirm two-factor sign-in">
          <p>Scan this QR code with your authenticator app, or type the secret, then enter the code it shows.</p>
          <img src={enrolment.qr_code} alt="QR code for your authenticator app" width={200} height={200} />
          <p>
            Secret: <code data-testid="two-factor-secret">{enrolment.secret}</code>
          </p>
          <Field label="Code from the app" error={fieldError('code')}>
            {(props) => (
              <input
                {...props}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="button primary">
            Confirm
          </button>
        </form>
      ) : null}
      {status?.enabled ? (
        <>
          <p>
            On. {status.recovery_codes_left} recovery code{status.recovery_codes_left === 1 ? '' : 's'} left.
          </p>
          <form method="post" onSubmit={disable} noValidate aria-label="Turn off two-factor sign-in">
            <Field label="Code, or recovery code" error={fieldError('code')}>
              {(props) => (
                <input {...props} name="code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} />
              )}
            </Field>
            <Field label="Or your password" error={fieldError('password')}>
              {(props) => (
                <input
                  {...props}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
            <button type="submit" className="button danger">
              Turn off two-factor sign-in
            </button>
          </form>
          <form method="post" onSubmit={renewCodes} noValidate aria-label="New recovery codes">
            <h3>New recovery codes</h3>
            <p>Lost them, or used most? Make a new set: the old codes stop working at once.</p>
            <Field label="Code from the app" error={fieldError('code', 'renew')}>
              {(props) => (
                <input
                  {...props}
                  name="renew-code"
                  autoComplete="one-time-code"
                  value={proof.code}
                  onChange={(e) => setProof({ ...proof, code: e.target.value })}
                />
              )}
            </Field>
            <Field label="Or your current password" error={fieldError('password', 'renew')}>
              {(props) => (
                <input
                  {...props}
                  name="renew-password"
                  type="password"
                  autoComplete="current-password"
                  value={proof.password}
                  onChange={(e) => setProof({ ...proof, password: e.target.value })}
                />
              )}
            </Field>
            <button type="submit" className="button">
              Make new recovery codes
            </button>
          </form>
        </>
      ) : null}
      {owner && status ? (
        <label className="check">
          <input type="checkbox" checked={status.required_here} onChange={(event) => require(event.target.checked)} />
          Require two-factor sign-in of everyone in this workspace
        </label>
      ) : null}
      {error?.field === 'required' ? <ErrorBanner message={error.message} /> : null}
    </section>
  );
}
