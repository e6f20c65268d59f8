import { parse as parseQueryString } from 'node:querystring';
import { previewPage, redirectKey, type SmartTarget, UNLOCK_COOKIE, UNLOCK_SECONDS, type Visits } from '@shortlinks/api/redirects';
import { LIMITS, SLUG_PATTERN } from '@shortlinks/contract';
import { isDatabaseUnavailable } from '@shortlinks/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../rate-limits.ts';
import { redirectHeaders, visitRefusal } from '../redirects/visit.ts';
import { GONE_PAGE, sendPage, UNAVAILABLE_PAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from './redirect-pages.ts';
import { type PasswordPageState, passwordPage, sendSmartPage } from './smart-link-pages.ts';

/**
 * Visits of smart links (issue #30, docs/redirects.md) on Fastify's route: what to answer is
 * decided by the API package (`Visits.smartVisit`, smart-redirects.ts); here it becomes HTTP.
 * Plain links never come here, nor visits of smart links the request alone decides (rules, a
 * valid unlock cookie), which the fast path answers (redirects/fast-redirects.ts) when the link is cached.
 */

/** A password form's body: `password=…`, URL-encoded, and nothing large. */
const FORM_BODY_LIMIT = 4096;

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;

const queryOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};

/**
 * Answers a GET or HEAD of a smart link; `domainId`: the domain its Host named (null: the
 * server's own), so a preview names the link's short URL on it.
 */
export async function answerSmartVisit(
  visits: Visits,
  request: SlugRequest,
  reply: FastifyReply,
  target: SmartTarget,
  now: number,
  domainId: string | null,
): Promise<FastifyReply> {
  try {
    const unlocked = await visits.unlocked(target, request.headers, now);
    return await answerOutcome(visits, request, reply, target, now, unlocked, request.method, domainId);
  } catch (error) {
    return unavailable(reply, error);
  }
}

/**
 * A smart link may need the database on its visit (a click limit, the cookie's key the first
 * time): while it cannot be reached, the visit is 503, as for a link not known at all
 * (docs/redirects.md, "When the database is unreachable").
 */
function unavailable(reply: FastifyReply, error: unknown): FastifyReply {
  if (!isDatabaseUnavailable(error)) throw error;
  return sendPage(reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)), 503, UNAVAILABLE_PAGE);
}

async function answerOutcome(
  visits: Visits,
  request: SlugRequest,
  reply: FastifyReply,
  target: SmartTarget,
  now: number,
  unlocked: boolean,
  method: string,
  domainId: string | null,
): Promise<FastifyReply> {
  const outcome = await visits.smartVisit(target, {
    slug: request.params.slug,
    domainId,
    now,
    method,
    headers: request.headers,
    query: queryOf(request.url),
    ip: request.ip,
    unlocked,
  });
  switch (outcome.kind) {
    case 'gone':
      return sendPage(reply, 410, GONE_PAGE);
    case 'password':
      // The form, and no click: the visitor has not been sent anywhere.
      return sendSmartPage(reply, 200, passwordPage('ask'));
    case 'preview':
      return sendSmartPage(reply, 200, previewPage(outcome.preview, outcome.shortUrl));
    case 'redirect':
      // With the request line's query, so `?qr=1` counts as a scan (the form posts to the same URL).
      if (outcome.counted) visits.recordClick(outcome.linkId, now, method, request.headers, request.ip, request.url);
      return reply.code(302).headers(redirectHeaders(outcome.location)).send();
  }
}

/**
 * Whether a form POST comes from a page of another site. A browser says so (`Sec-Fetch-Site`,
 * `Origin`); such a POST is refused before its password is read, so another site can neither make
 * a visitor's browser guess for it (and spend the visitor's guesses) nor plant a cookie.
 */
function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== request.host;
  } catch {
    // `Origin: null` (a sandboxed frame, a redirect across sites) or garbage.
    return true;
  }
}

/** `POST /{slug}`: a password-protected link's form (docs/redirects.md, "Passwords"). */
export async function passwordRoute(app: FastifyInstance, { visits }: { visits: Visits }) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, parseQueryString(body as string));
    },
  );

  app.post<{ Params: { slug: string }; Body: unknown }>(
    '/:slug',
    { config: { visit: true }, bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      const now = Date.now();
      const retryAfter = visits.countVisit(clientAddress(request.ip), now);
      if (retryAfter !== undefined) {
        const refusal = visitRefusal(visits, retryAfter);
        return reply.code(429).headers(refusal.headers).send(refusal.body);
      }
      const { slug } = request.params;
      // The Host picks the domain, as for a GET (docs/domains.md): the slug is looked up on it only,
      // and a host that is neither the server's nor a verified domain's looks nothing up.
      const domain = visits.hostDomain(request.headers.host);
      const domainId = domain ? domain.id : null;
      const outcome =
        domain !== undefined && slug.length <= LIMITS.slugChars && SLUG_PATTERN.test(slug)
          ? await visits.resolve(redirectKey(domainId, slug), now)
          : undefined;
      if (outcome?.kind !== 'smart' || outcome.target.smart.passwordHash === null) {
        // As before smart links: nothing is served at POST of any other path.
        return reply.code(404).send({ code: 'NOT_FOUND', message: `Nothing is served at POST /${slug}` });
      }
      const { target } = outcome;
      if (crossSite(request)) return sendSmartPage(reply, 403, passwordPage('cross-site'));
      const password = passwordOf(request.body);
      const page = (status: number, state: PasswordPageState) => sendSmartPage(reply, status, passwordPage(state));
      // No password of the allowed length can be right: answered at once, and not a guess counted.
      if (password === undefined || [...password].length < LIMITS.passwordMinChars || [...password].length > LIMITS.passwordMaxChars) {
        return page(401, 'wrong');
      }
      let attempt: Awaited<ReturnType<Visits['tryPassword']>>;
      try {
        attempt = await visits.tryPassword(target, password, clientAddress(request.ip), now);
      } catch (error) {
        return unavailable(reply, error);
      }
      if (attempt.kind === 'refused') {
        reply.header('retry-after', String(attempt.retryAfterSeconds));
        return page(429, 'refused');
      }
      if (attempt.kind === 'wrong') return page(401, 'wrong');
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        // Path /{slug} on every domain: cookies are kept per host, so another domain's same slug never sees it.
        `${UNLOCK_COOKIE}=${attempt.cookie}; Path=/${slug}; Max-Age=${UNLOCK_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
      );
      // Sent on as a GET of the unlocked link would be: rules, the click limit and the click.
      return answerOutcome(visits, request, reply, target, now, true, 'GET', domainId);
    },
  );
}

function passwordOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>).password;
  return typeof value === 'string' ? value : undefined;
}
