import { hkdfSync } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { Services, SignInAttempts } from '@shortlinks/api/services';
import { SingleSignOnRefusedError, type SsoService } from '@shortlinks/api/sso';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type CookiePolicy, SESSION_COOKIE, servedOverHttps, webExchange } from '../session-cookie.ts';

/** The cookie that keeps a single sign-on's state, nonce and PKCE verifier until the provider sends the browser back. */
export const SSO_COOKIE = 'shortlinks_sso';
const SSO_COOKIE_SECONDS = 600;

export const SSO_START_PATH = '/auth/sso/start';
export const SSO_CALLBACK_PATH = '/auth/sso/callback';

/**
 * The key that signs the pending cookie: derived from the OpenID client secret, which every
 * instance of one service shares and which is secret already, so a sign-in started on one instance
 * finishes on another and no new setting is needed. HKDF with its own label, so the MAC key is not
 * the client secret itself.
 */
export function pendingCookieKey(clientSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', clientSecret, 'shortlinks', 'shortlinks_sso pending sign-in cookie', 32));
}

interface SsoPluginOptions {
  sso: SsoService | undefined;
  /** Signs the pending cookie (pendingCookieKey); required when `sso` is set. */
  cookieKey: Buffer | undefined;
  services: Services;
  cookies: CookiePolicy;
  signInAttempts: SignInAttempts;
  /** PUBLIC_URL: the callback's origin; unset: the origin the browser reached (development, tests). */
  publicUrl: string | undefined;
}

/**
 * Single sign-on's routes (docs/accounts.md, "Single sign-on"): `GET /auth/sso` says whether it is
 * configured (the sign-in page shows its button), `/auth/sso/start` sends the browser to the
 * provider, `/auth/sso/callback` signs it in and sends it to the dashboard; a refusal goes to the
 * dashboard with `?sso_error=<reason>`. Both GETs, as the provider's redirects are.
 */
export async function singleSignOnPlugin(
  app: FastifyInstance,
  { sso, cookieKey, services, cookies, signInAttempts, publicUrl }: SsoPluginOptions,
) {
  const origin = (request: FastifyRequest) =>
    publicUrl ?? `${servedOverHttps(request, cookies) ? 'https' : request.protocol}://${request.host}`;
  const cookieOptions = (request: FastifyRequest) => ({
    path: '/auth/sso',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: servedOverHttps(request, cookies),
  });

  // Its own cookie parser: this plugin sits outside the API's scope, which has one too.
  // Its secret signs the pending cookie (HMAC-SHA256): a value this server did not write, or
  // altered, is refused like a missing one (docs/security.md, "Single sign-on").
  await app.register(fastifyCookie, cookieKey ? { secret: cookieKey } : {});
  app.get('/auth/sso', async () => ({ enabled: sso !== undefined }));
  if (!sso) return;

  app.get(SSO_START_PATH, async (request, reply) => {
    try {
      const { authorizationUrl, cookie } = await sso.start(`${origin(request)}${SSO_CALLBACK_PATH}`);
      reply.setCookie(SSO_COOKIE, cookie, { ...cookieOptions(request), maxAge: SSO_COOKIE_SECONDS, signed: true });
      return reply.redirect(authorizationUrl, 302);
    } catch (error) {
      request.log.warn({ err: error }, 'single sign-on could not start');
      return reply.redirect('/app/?sso_error=provider_unavailable', 302);
    }
  });

  app.get(SSO_CALLBACK_PATH, async (request, reply) => {
    const signed = request.cookies[SSO_COOKIE];
    const unsigned = signed === undefined ? undefined : request.unsignCookie(signed);
    const cookie = unsigned?.valid ? (unsigned.value ?? undefined) : undefined;
    // Deleted whatever the outcome: the pending values serve one callback.
    reply.clearCookie(SSO_COOKIE, cookieOptions(request));
    const callbackUrl = `${origin(request)}${request.url}`;
    try {
      // The browser's session, if any, ends as at any sign-in (the cookie counts on /trpc only, so it is read here).
      const previous = (await services.sessions.authenticate(request.cookies[SESSION_COOKIE])) ?? null;
      await sso.finish(
        webExchange(request, reply, cookies, signInAttempts),
        previous,
        `${origin(request)}${SSO_CALLBACK_PATH}`,
        callbackUrl,
        cookie,
      );
      return reply.redirect('/app/', 302);
    } catch (error) {
      const reason = error instanceof SingleSignOnRefusedError ? error.reason : 'refused';
      if (!(error instanceof SingleSignOnRefusedError)) request.log.warn({ err: error }, 'single sign-on failed');
      return reply.redirect(`/app/?sso_error=${encodeURIComponent(reason)}`, 302);
    }
  });
}
