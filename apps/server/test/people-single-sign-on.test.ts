import {
  decodePendingSignIn,
  encodePendingSignIn,
  SingleSignOn,
  type SingleSignOnIdentity,
  SingleSignOnRefused,
} from '@shortlinks/api/single-sign-on';
import { startOpenIdProvider, type TestOpenIdProvider } from '@shortlinks/testing/openid-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Never contacted: the provider's last redirect, to here, is where the test stops and reads the callback.
const REDIRECT_URI = 'http://127.0.0.1:9/auth/sso/callback';

const ACCOUNTS = [
  { email: 'Ada@Acme.com', name: 'Ada Lovelace', subject: 'ada-1' },
  { email: 'mallory@evil-acme.com', name: 'Mallory' },
  { email: 'eve@acme.com.evil.net' },
  { email: 'sub@eng.acme.com' },
  { email: 'grace@acme.com', emailVerified: false, name: 'Grace' },
  { email: 'joan@acme.com', emailVerified: null },
];

async function refusal(promise: Promise<unknown>): Promise<SingleSignOnRefused> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(SingleSignOnRefused);
  return error as SingleSignOnRefused;
}

describe('single sign-on against a real OpenID provider (email from UserInfo)', () => {
  let provider: TestOpenIdProvider;
  let sso: SingleSignOn;
  const settings = () => ({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri: REDIRECT_URI,
    allowedEmailDomains: ['ACME.com'],
    allowInsecureLoopbackIssuer: true,
    timeoutSeconds: 10,
  });
  const signIn = async (email: string, instance = sso): Promise<SingleSignOnIdentity> => {
    const { authorizationUrl, pending } = await instance.startSignIn();
    // Through the cookie's form, as the server keeps it between the redirect and the callback.
    const kept = decodePendingSignIn(encodePendingSignIn(pending));
    expect(kept).toEqual(pending);
    return instance.finishSignIn(await provider.signIn(authorizationUrl, email), kept!);
  };

  beforeAll(async () => {
    provider = await startOpenIdProvider({ redirectUris: [REDIRECT_URI], accounts: ACCOUNTS });
    sso = await SingleSignOn.discover(settings());
  });
  afterAll(() => provider?.close());

  it('the authorization URL carries state, nonce and an S256 PKCE challenge, fresh each time', async () => {
    const first = await sso.startSignIn();
    const second = await sso.startSignIn();
    const url = new URL(first.authorizationUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: provider.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: first.pending.state,
      nonce: first.pending.nonce,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('code_challenge')).not.toBe(first.pending.codeVerifier);
    expect(second.pending.state).not.toBe(first.pending.state);
    expect(second.pending.nonce).not.toBe(first.pending.nonce);
    expect(second.pending.codeVerifier).not.toBe(first.pending.codeVerifier);
  });

  it('an allowed domain signs in: email (lower-cased), name, subject and issuer', async () => {
    expect(await signIn('ada@acme.com')).toEqual({
      email: 'ada@acme.com',
      name: 'Ada Lovelace',
      subject: 'ada-1',
      issuer: provider.issuer,
    });
  });

  it('a disallowed domain is refused, with no suffix or prefix tricks', async () => {
    for (const email of ['mallory@evil-acme.com', 'eve@acme.com.evil.net', 'sub@eng.acme.com']) {
      const error = await refusal(signIn(email));
      expect(error.reason).toBe('domain_not_allowed');
      expect(error.message).toContain(email);
    }
  });

  it('a tampered state is refused before the code is used; the untampered callback still works after', async () => {
    const { authorizationUrl, pending } = await sso.startSignIn();
    const callback = await provider.signIn(authorizationUrl, 'ada@acme.com');
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${pending.state.slice(0, -1)}${pending.state.endsWith('A') ? 'B' : 'A'}`);
    expect((await refusal(sso.finishSignIn(tampered, pending))).reason).toBe('state_mismatch');
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expect((await refusal(sso.finishSignIn(missing, pending))).reason).toBe('state_mismatch');
    expect((await sso.finishSignIn(callback, pending)).email).toBe('ada@acme.com');
  });

  it("a callback from another sign-in (another browser's) is refused: state and PKCE belong to one", async () => {
    const mine = await sso.startSignIn();
    const theirs = await sso.startSignIn();
    const theirCallback = await provider.signIn(theirs.authorizationUrl, 'ada@acme.com');
    expect((await refusal(sso.finishSignIn(theirCallback, mine.pending))).reason).toBe('state_mismatch');
    // Even with their state copied, the code is bound to their PKCE verifier and nonce.
    expect((await refusal(sso.finishSignIn(theirCallback, { ...mine.pending, state: theirs.pending.state }))).reason).toBe(
      'provider_error',
    );
  });

  it('a callback replayed (the same code twice) is refused the second time', async () => {
    const { authorizationUrl, pending } = await sso.startSignIn();
    const callback = await provider.signIn(authorizationUrl, 'ada@acme.com');
    await sso.finishSignIn(callback, pending);
    expect((await refusal(sso.finishSignIn(callback, pending))).reason).toBe('provider_error');
  });

  it('an unverified email is refused, even of an allowed domain', async () => {
    const error = await refusal(signIn('grace@acme.com'));
    expect(error.reason).toBe('email_unverified');
  });

  it('an email without email_verified is refused unless the operator trusts the provider for it', async () => {
    expect((await refusal(signIn('joan@acme.com'))).reason).toBe('email_unverified');
    const trusting = await SingleSignOn.discover({ ...settings(), trustEmailWithoutVerifiedClaim: true });
    expect((await signIn('joan@acme.com', trusting)).email).toBe('joan@acme.com');
  });

  it('an error answered by the provider (the person cancelled) is a refusal, not a crash', async () => {
    const { pending } = await sso.startSignIn();
    const callback = new URL(`${REDIRECT_URI}?error=access_denied&error_description=cancelled&state=${pending.state}`);
    const error = await refusal(sso.finishSignIn(callback, pending));
    expect(error.reason).toBe('provider_error');
    expect(error.message).toContain('access_denied');
  });

  it('an http:// issuer is refused unless allowed, and allowed only on a loopback address', async () => {
    await expect(SingleSignOn.discover({ ...settings(), allowInsecureLoopbackIssuer: false })).rejects.toThrow('must be an https:// URL');
    await expect(SingleSignOn.discover({ ...settings(), issuer: 'http://sso.acme.com' })).rejects.toThrow('must be an https:// URL');
    await expect(SingleSignOn.discover({ ...settings(), allowedEmailDomains: [] })).rejects.toThrow('at least one allowed email domain');
  });
});

describe('single sign-on: a provider that puts the email in the ID token', () => {
  let provider: TestOpenIdProvider;
  beforeAll(async () => {
    provider = await startOpenIdProvider({ redirectUris: [REDIRECT_URI], accounts: ACCOUNTS, claimsInIdToken: true });
  });
  afterAll(() => provider?.close());

  it('signs in from the ID token, and refuses there the same way', async () => {
    const sso = await SingleSignOn.discover({
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      redirectUri: REDIRECT_URI,
      allowedEmailDomains: ['acme.com'],
      allowInsecureLoopbackIssuer: true,
    });
    const start = await sso.startSignIn();
    expect(await sso.finishSignIn(await provider.signIn(start.authorizationUrl, 'ada@acme.com'), start.pending)).toMatchObject({
      email: 'ada@acme.com',
      subject: 'ada-1',
    });
    const other = await sso.startSignIn();
    const error = await refusal(sso.finishSignIn(await provider.signIn(other.authorizationUrl, 'grace@acme.com'), other.pending));
    expect(error.reason).toBe('email_unverified');
  });
});
