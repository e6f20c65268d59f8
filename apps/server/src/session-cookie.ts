import type { CookieSerializeOptions } from '@fastify/cookie';
import type { SignInAttempts, WebExchange } from '@shortlinks/api/services';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The dashboard's session cookie (docs/security.md, "Sessions"). Holds the session's secret, `sls_…`. */
export const SESSION_COOKIE = 'shortlinks_session';

/** The header in which the dashboard sends its session's CSRF token with every write. */
export const CSRF_HEADER = 'x-csrf-token';

/** How the server decides the cookie's `Secure`: always when its public URL is HTTPS, else per request. */
export interface CookiePolicy {
  /** PUBLIC_URL is https: the dashboard is served over HTTPS whatever a request says. */
  alwaysSecure: boolean;
}

/**
 * Whether `request` came over HTTPS: its own TLS, or a trusted proxy's `X-Forwarded-Proto: https`
 * (Fastify reads the header only from proxies TRUST_PROXY trusts).
 */
export function servedOverHttps(request: FastifyRequest, policy: CookiePolicy): boolean {
  return policy.alwaysSecure || request.protocol === 'https';
}

/**
 * The session cookie's attributes: `HttpOnly` (no script reads it), `SameSite=Lax` (no cross-site
 * request but a top-level navigation carries it), `Secure` over HTTPS, for the whole site (the
 * dashboard at /app calls /trpc).
 */
function cookieOptions(request: FastifyRequest, policy: CookiePolicy, expires: Date): CookieSerializeOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: servedOverHttps(request, policy), expires };
}

/** What a people procedure needs of this exchange (tRPC only): the address, the agent, the cookie, the sign-in limits. */
export function webExchange(
  request: FastifyRequest,
  reply: FastifyReply,
  policy: CookiePolicy,
  signInAttempts: SignInAttempts,
): WebExchange {
  return {
    address: request.ip,
    userAgent: request.headers['user-agent'],
    setSessionCookie: (token, expiresAt) => {
      reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, policy, expiresAt));
    },
    clearSessionCookie: () => {
      reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(request, policy, new Date(0)), expires: new Date(0) });
    },
    signInAttempts,
    pendingSignIn: pendingSignInCookie(request, reply, policy),
  };
}

/** The cookie that carries a sign-in's second step (two-factor) between the password and the code. */
export const PENDING_SIGN_IN_COOKIE = 'shortlinks_sign_in';

/**
 * HttpOnly, `SameSite=Strict` (only this site's own pages send the code), for /trpc only, and short:
 * the second step is bounded in time (docs/security.md, "Two-factor sign-in").
 */
function pendingSignInCookie(request: FastifyRequest, reply: FastifyReply, policy: CookiePolicy) {
  const options = { path: '/trpc', httpOnly: true, sameSite: 'strict' as const, secure: servedOverHttps(request, policy) };
  return {
    set: (token: string, maxAgeSeconds: number) => {
      reply.setCookie(PENDING_SIGN_IN_COOKIE, token, { ...options, maxAge: maxAgeSeconds });
    },
    read: () => request.cookies[PENDING_SIGN_IN_COOKIE],
    clear: () => {
      reply.clearCookie(PENDING_SIGN_IN_COOKIE, options);
    },
  };
}
