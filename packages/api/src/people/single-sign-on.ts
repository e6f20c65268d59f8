import { timingSafeEqual } from 'node:crypto';
import { domainToASCII } from 'node:url';
import * as oidc from 'openid-client';

/**
 * Single sign-on with OpenID Connect (the authorization code flow with PKCE), through openid-client.
 * The operator names an issuer, a client id and secret, the redirect URI registered with the
 * provider, and the email domains whose people may sign in. docs/security.md, "Single sign-on".
 */

export interface SingleSignOnSettings {
  /** The provider's issuer URL; its `/.well-known/openid-configuration` is read once. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Our callback, exactly as registered with the provider. */
  redirectUri: string;
  /** Who may sign in: an email's domain must equal one of these (case aside). At least one. */
  allowedEmailDomains: readonly string[];
  /**
   * Take an email the provider sends without `email_verified` as verified. Off by default: only for
   * a provider whose every account is managed by the organisation (a workforce tenant), never for one
   * where people pick their own address. `email_verified: false` is refused either way.
   */
  trustEmailWithoutVerifiedClaim?: boolean;
  /**
   * Allow an `http://` issuer. openid-client refuses plain HTTP, rightly: the provider's answers are
   * what we trust. Only for a provider on this machine (tests, a local development provider); the
   * issuer must then be a loopback address, or configuration fails.
   */
  allowInsecureLoopbackIssuer?: boolean;
  /** Each request to the provider, in seconds (openid-client's default is 30). */
  timeoutSeconds?: number;
}

/** What the caller keeps between the redirect and the callback: a short-lived, HttpOnly cookie. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * How long the pending sign-in's cookie lives: a person signing in at the provider (a password, a
 * second factor) is done in minutes; a callback after that starts again.
 */
export const PENDING_SIGN_IN_MAX_AGE_SECONDS = 600;

/** The three random values base64url-encoded, as openid-client draws them (43 characters each). */
const RANDOM_VALUE = /^[A-Za-z0-9_-]{43,128}$/;

/** The cookie's value for `pending` (URL-safe, no escaping needed). */
export function encodePendingSignIn(pending: PendingSignIn): string {
  return [pending.state, pending.nonce, pending.codeVerifier].join('.');
}

/** Reads the cookie back; null for anything this module did not write (a missing or altered cookie is a refused sign-in, never a crash). */
export function decodePendingSignIn(value: string | undefined): PendingSignIn | null {
  const parts = value?.split('.') ?? [];
  if (parts.length !== 3 || !parts.every((part) => RANDOM_VALUE.test(part))) return null;
  const [state, nonce, codeVerifier] = parts as [string, string, string];
  return { state, nonce, codeVerifier };
}

/** Who signed in, as the provider vouches for it. Link accounts by `issuer` + `subject`, not by email. */
export interface SingleSignOnIdentity {
  /** Lower-cased, with a verified, allowed domain. */
  email: string;
  name: string | null;
  subject: string;
  issuer: string;
}

export type SingleSignOnRefusal =
  /** The callback's `state` is not the one kept: a forged or replayed callback, or another tab's. */
  | 'state_mismatch'
  /** The provider answered with an error (`?error=access_denied`…), or its answer did not check out. */
  | 'provider_error'
  /** No email among the claims. */
  | 'email_missing'
  /** `email_verified` is false (or absent, unless trusted). */
  | 'email_unverified'
  /** The email's domain is not one of the allowed ones. */
  | 'domain_not_allowed';

/** A sign-in the provider or our rules refused; `reason` for the caller, `message` for the person. */
export class SingleSignOnRefused extends Error {
  override name = 'SingleSignOnRefused';
  readonly reason: SingleSignOnRefusal;

  constructor(reason: SingleSignOnRefusal, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A domain in one form to compare: ASCII (punycode for an international one), lower case. '' if it is not a domain. */
function canonicalDomain(domain: string): string {
  return domainToASCII(domain.trim());
}

/**
 * Whether `email`'s domain is one of `allowed`: the whole domain, compared exactly once both are
 * canonical. `evil-acme.com`, `acme.com.evil.net` and `sub.acme.com` are not `acme.com`.
 */
export function emailDomainAllowed(email: string, allowed: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = canonicalDomain(email.slice(at + 1));
  return domain !== '' && allowed.some((entry) => canonicalDomain(entry) === domain);
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class SingleSignOn {
  private readonly config: oidc.Configuration;
  private readonly settings: SingleSignOnSettings;

  private constructor(config: oidc.Configuration, settings: SingleSignOnSettings) {
    this.config = config;
    this.settings = settings;
  }

  /** Reads the provider's metadata (discovery); throws when the settings cannot work. */
  static async discover(settings: SingleSignOnSettings): Promise<SingleSignOn> {
    const issuer = new URL(settings.issuer);
    if (settings.allowedEmailDomains.filter((domain) => canonicalDomain(domain) !== '').length === 0) {
      throw new Error('single sign-on needs at least one allowed email domain');
    }
    const insecure = issuer.protocol === 'http:';
    if (insecure && !(settings.allowInsecureLoopbackIssuer && LOOPBACK_HOSTS.has(issuer.hostname))) {
      throw new Error('the OpenID issuer must be an https:// URL');
    }
    const options: oidc.DiscoveryRequestOptions = {
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      ...(settings.timeoutSeconds ? { timeout: settings.timeoutSeconds } : {}),
    };
    const discovered = await oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, options);
    // client_secret_basic is what a provider that lists no method accepts (RFC 8414 §2); post only when it is the one offered.
    const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
    const usePost = methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
    const config = new oidc.Configuration(
      discovered.serverMetadata(),
      settings.clientId,
      settings.clientSecret,
      usePost ? oidc.ClientSecretPost(settings.clientSecret) : oidc.ClientSecretBasic(settings.clientSecret),
    );
    if (insecure) oidc.allowInsecureRequests(config);
    if (settings.timeoutSeconds) config.timeout = settings.timeoutSeconds;
    // The ID token's signature is checked against the provider's keys too, not only trusted for
    // arriving over TLS from the token endpoint.
    oidc.enableNonRepudiationChecks(config);
    return new SingleSignOn(config, settings);
  }

  /**
   * Where to send the browser, and what to keep until it comes back: a fresh `state` (ties the callback
   * to this browser), `nonce` (ties the ID token to this request) and PKCE verifier (S256: a stolen code
   * is useless without it), drawn for every sign-in.
   */
  async startSignIn(): Promise<{ authorizationUrl: string; pending: PendingSignIn }> {
    const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(this.config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { authorizationUrl: url.href, pending };
  }

  /**
   * The callback: checks `state`, exchanges the code (with the PKCE verifier, checking the ID token,
   * its `nonce` and the `iss` of the answer), then reads the email and checks it is verified and of an
   * allowed domain. The caller forgets `pending` whatever happens: it serves one callback.
   */
  async finishSignIn(callbackUrl: string | URL, pending: PendingSignIn): Promise<SingleSignOnIdentity> {
    const url = new URL(callbackUrl);
    const state = url.searchParams.get('state');
    if (state === null || !sameString(state, pending.state)) {
      throw new SingleSignOnRefused(
        'state_mismatch',
        'This sign-in link does not belong to this browser or has already been used; start again.',
      );
    }
    const providerError = url.searchParams.get('error');
    if (providerError !== null) {
      const description = url.searchParams.get('error_description');
      throw new SingleSignOnRefused(
        'provider_error',
        `The identity provider refused the sign-in (${providerError}${description ? `: ${description}` : ''}).`,
      );
    }

    let claims: Record<string, unknown>;
    let issuer: string;
    let subject: string;
    try {
      const tokens = await oidc.authorizationCodeGrant(this.config, url, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      issuer = idToken.iss;
      subject = idToken.sub;
      claims = { ...idToken };
      // Many providers put the email in the ID token; the others answer it from UserInfo (for the same subject).
      if (typeof claims.email !== 'string') {
        claims = { ...claims, ...(await oidc.fetchUserInfo(this.config, tokens.access_token, subject)) };
      }
    } catch (error) {
      throw new SingleSignOnRefused('provider_error', 'The identity provider’s answer could not be verified; start again.', {
        cause: error,
      });
    }

    if (typeof claims.email !== 'string' || claims.email === '') {
      throw new SingleSignOnRefused('email_missing', 'The identity provider did not share an email address.');
    }
    const email = claims.email.trim().toLowerCase();
    // Some providers send the claim as the string "true".
    const verifiedClaim = claims.email_verified === 'true' ? true : claims.email_verified === 'false' ? false : claims.email_verified;
    const verified = verifiedClaim === true || (verifiedClaim === undefined && this.settings.trustEmailWithoutVerifiedClaim === true);
    if (!verified) {
      throw new SingleSignOnRefused('email_unverified', `The identity provider has not verified ${email}.`);
    }
    if (!emailDomainAllowed(email, this.settings.allowedEmailDomains)) {
      throw new SingleSignOnRefused('domain_not_allowed', `${email} may not sign in here: its domain is not one this service allows.`);
    }
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : null;
    return { email, name, subject, issuer };
  }
}
