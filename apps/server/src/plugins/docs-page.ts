import { createHash } from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';

/**
 * The API reference at /docs (Scalar), which shares the dashboard's origin and so gets the
 * dashboard's protections (docs/security.md, *The API reference page*): a Content-Security-Policy
 * allowing its own files only, never framed, no Referer, no window shared with the dashboard.
 * Everything it loads is served from here (the script at /docs/js/scalar.js, system fonts), and
 * the vendor's cloud features are off.
 */

/**
 * Scalar's page starts itself with one inline script holding its configuration, allowed by its
 * hash (computed from the page actually sent, so an upgrade that changes it cannot break the page
 * silently); styles are injected at run time (`<style>` elements and `style` attributes), which
 * only 'unsafe-inline' allows: styles cannot run code, and with img-src, font-src and connect-src
 * limited to this origin they cannot send anything elsewhere.
 */
export function docsCsp(page: string): string {
  const hashes = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '')
        .digest('base64')}'`,
  );
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...hashes],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** Scalar's options: its own features only, nothing of its hosted services. */
const REFERENCE_OPTIONS = {
  title: 'Shortlinks API',
  // Fonts from fonts.scalar.com otherwise.
  withDefaultFonts: false,
  // "Ask AI" and "Generate MCP" send the document to Scalar's servers.
  agent: { disabled: true },
  mcp: { disabled: true },
  // The developer tools offer "Deploy" and "Share" to Scalar's platform.
  showDeveloperTools: 'never',
  telemetry: false,
  // The one scheme of the API, `Authorization: Bearer slk_…`, selected in the request panel; a key
  // typed there stays in the page's memory (persistAuth is off).
  authentication: { preferredSecurityScheme: 'bearerAuth' },
  persistAuth: false,
} as const;

export async function docsPagePlugin(app: FastifyInstance, { openApiUrl }: { openApiUrl: string }) {
  await app.register(fastifyHelmet, {
    // Set below, from the page itself.
    contentSecurityPolicy: false,
    // HTTPS is the operator's proxy's to declare, as for the dashboard.
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Not `same-origin`: that would keep a window this page opens on the dashboard scriptable
    // from here. With the dashboard's `same-origin` and this, the two never share a window group.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  let csp: { page: string; header: string } | undefined;
  app.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html')) {
      if (csp?.page !== payload) csp = { page: payload, header: docsCsp(payload) };
      reply.header('content-security-policy', csp.header);
    }
    return payload;
  });
  await app.register(scalar, { routePrefix: '/docs', configuration: { url: openApiUrl, ...REFERENCE_OPTIONS } });
}
