import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@shortlinks/api/errors';
import type { Caller, Services } from '@shortlinks/api/services';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type CookiePolicy, CSRF_HEADER, SESSION_COOKIE, servedOverHttps } from '../session-cookie.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who the request comes from: an API key's caller, or on tRPC a signed-in person's session;
     * null without either, or with an unknown, revoked or expired one.
     */
    caller: Caller | null;
  }
}

/** The key of `Authorization: Bearer <key>` (scheme in any case), or undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/** Where the session cookie counts: tRPC only. `/api/v1` never reads it (docs/security.md). */
const SESSION_PATHS = /^\/trpc(\/|\?|$)/;

/**
 * The procedures that sign a browser in (`auth.signIn`, `auth.usePasswordLink`, an invitation
 * accepted, two-factor's second step), single or in a batch.
 */
const SIGN_IN_PATHS = /^\/trpc\/[^?]*\b(auth\.|invitations\.accept|twoFactor\.signIn)/;

/** Methods that change nothing, which a cross-site page may send without harm (tRPC queries are GETs). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one place a request's caller is found, once, before anything else of the API runs:
 * `request.caller` says who it is. The rate limit counts against it, REST answers 401 without it,
 * and tRPC's procedures check its role (docs/architecture.md).
 *
 * - `Authorization: Bearer <key>`: the API key's caller, on REST and tRPC alike.
 * - On tRPC only, without an Authorization header: the session cookie's caller. A write made with
 *   it (any method but GET and HEAD) must come from this server's own origin (`Origin`) and carry
 *   the session's CSRF token in `X-CSRF-Token`; otherwise it is refused with 403 FORBIDDEN before
 *   anything runs. Signing in without a cookie is refused too when it names another origin, so no
 *   other site can sign a browser in to an account of its choosing.
 */
export const authenticationPlugin = fastifyPlugin(
  async (app: FastifyInstance, { services, cookies }: { services: Services; cookies: CookiePolicy }) => {
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      const { authorization } = request.headers;
      if (authorization !== undefined || !SESSION_PATHS.test(request.url)) {
        const keyCaller = await services.apiKeys.authenticate(bearerToken(authorization));
        // A person's key in a workspace that requires two-factor: only while its maker has it on.
        request.caller = keyCaller ? await services.twoFactor.forKey(keyCaller) : null;
        return;
      }
      const writes = !SAFE_METHODS.has(request.method);
      const origin = request.headers.origin;
      const token = request.cookies[SESSION_COOKIE];
      // Signing in from another site (login CSRF) is refused even without a cookie; any other
      // call without a cookie or a key has no caller, and answers as it always did.
      const signsIn = token === undefined && SIGN_IN_PATHS.test(request.url);
      if (writes && (token !== undefined || signsIn) && origin !== undefined && !sameOrigin(request, origin, cookies)) {
        throw crossSite('it came from another site');
      }
      const caller = token === undefined ? undefined : await services.sessions.authenticate(token);
      if (caller?.session && writes) {
        if (origin === undefined) throw crossSite('it names no Origin');
        if (!tokensMatch(request.headers[CSRF_HEADER], caller.session.csrfToken))
          throw crossSite(`its ${CSRF_HEADER} header is missing or wrong`);
      }
      request.caller = caller ?? null;
    });
  },
  { name: 'authentication', fastify: '5.x', dependencies: ['@fastify/cookie'] },
);

/**
 * Whether `origin` is this server's own, as the browser reached it: its scheme (HTTPS behind a
 * trusted proxy that says so) and its host (with port).
 */
function sameOrigin(request: FastifyRequest, origin: string, cookies: CookiePolicy): boolean {
  const scheme = servedOverHttps(request, cookies) ? 'https' : request.protocol;
  return origin.toLowerCase() === `${scheme}://${request.host}`.toLowerCase();
}

function tokensMatch(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function crossSite(why: string): AppError {
  return Object.assign(new AppError('FORBIDDEN', `A write with the session cookie was refused: ${why} (docs/security.md)`), {
    statusCode: 403,
  });
}
