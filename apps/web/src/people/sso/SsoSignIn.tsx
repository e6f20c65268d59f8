import { useEffect, useState } from 'react';

/** What a refused single sign-on (`/app/?sso_error=<reason>`) says to the person. */
const REASONS: Record<string, string> = {
  state_mismatch: 'The single sign-on expired or was started in another tab. Try again.',
  domain_not_allowed: 'Your email’s domain may not sign in here. Ask the administrator.',
  email_unverified: 'Your provider has not verified your email, so it cannot sign you in here.',
  email_missing: 'Your provider did not share your email, so it cannot sign you in here.',
  provider_unavailable: 'The sign-in provider could not be reached. Try again later.',
};

/**
 * "Sign in with SSO" on the sign-in page, when the server has single sign-on (`GET /auth/sso`): a
 * plain link to `/auth/sso/start`, which goes to the provider and back (docs/accounts.md).
 */
export function SsoSignIn() {
  const [enabled, setEnabled] = useState(false);
  const [reason] = useState(() => new URLSearchParams(window.location.search).get('sso_error'));
  useEffect(() => {
    fetch('/auth/sso', { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : { enabled: false }))
      .then((answer: { enabled?: boolean }) => setEnabled(answer.enabled === true))
      .catch(() => setEnabled(false));
  }, []);
  return (
    <>
      {reason ? (
        <div className="banner error" role="alert">
          {REASONS[reason] ?? 'The single sign-on was refused. Try again, or ask the administrator.'}
        </div>
      ) : null}
      {enabled ? (
        <a className="button wide" href="/auth/sso/start">
          Sign in with SSO
        </a>
      ) : null}
    </>
  );
}
