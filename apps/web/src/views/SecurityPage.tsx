import { Field } from '@shortlinks/ui';
import { type FormEvent, useState } from 'react';
import { TwoFactorSettings } from '../people/two-factor/TwoFactorSettings.tsx';
import { PeopleError, people } from '../session/people-api.ts';
import { useDocumentTitle } from '../useDocumentTitle.ts';

/** Your password: changed with the current one; your other sessions end. (Two-factor comes here next.) */
export function SecurityPage() {
  useDocumentTitle('Security');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<{ field?: string | undefined; message: string }>();
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(false);
    try {
      await people.changePassword(current, next);
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (caught) {
      setError(caught instanceof PeopleError ? { field: caught.field, message: caught.message } : { message: 'Try again.' });
    }
  };

  return (
    <>
      <div className="page-head">
        <h1>Security</h1>
      </div>
      <form method="post" className="panel" onSubmit={submit} noValidate aria-label="Change your password">
        <h2>Change your password</h2>
        {done ? (
          <div className="banner ok" role="status">
            Your password was changed. Your other sessions were signed out.
          </div>
        ) : null}
        {error && error.field !== 'current_password' && error.field !== 'new_password' ? (
          <div className="banner error" role="alert">
            {error.message}
          </div>
        ) : null}
        <Field label="Current password" error={error?.field === 'current_password' ? error.message : undefined}>
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(event) => setCurrent(event.target.value)}
            />
          )}
        </Field>
        <Field
          label="New password"
          error={error?.field === 'new_password' ? error.message : undefined}
          hint="10 to 256 characters; a common password is refused."
        >
          {(props) => (
            <input {...props} type="password" autoComplete="new-password" value={next} onChange={(event) => setNext(event.target.value)} />
          )}
        </Field>
        <button type="submit" className="button primary">
          Change password
        </button>
      </form>
      <TwoFactorSettings />
    </>
  );
}
