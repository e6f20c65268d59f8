import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DASHBOARD_DIR } from '../dashboard/location.ts';

export interface DashboardPluginOptions {
  /** The built dashboard (apps/web/dist by default). */
  root?: string;
}

/**
 * The dashboard's Content-Security-Policy (docs/dashboard.md, *Headers*): its own scripts and
 * styles only, no inline code, nothing from other origins, never framed. React's `style` props
 * set the CSSOM, which `style-src` does not govern; QR codes are data: and blob: images.
 */
export const DASHBOARD_CSP = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** Hashed file names change with their content, so a year (and never revalidating) is safe. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The page names the current assets: always asked again (a 304 when unchanged). */
const PAGE_CACHE = 'no-cache';

/**
 * The web dashboard at /app: its hashed assets under /app/assets/, and index.html for /app and
 * every client-side route below it (/app/links/lnk_…). Registered with the `/app` prefix in a
 * scope of its own, so its headers and hooks never touch the API or the redirects.
 */
export async function dashboardPlugin(app: FastifyInstance, { root = DASHBOARD_DIR }: DashboardPluginOptions = {}) {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: DASHBOARD_CSP },
    // HTTPS is the operator's proxy's to declare: HSTS set here would bind the short-link domain too.
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });

  app.setNotFoundHandler((request, reply) => notFound(reply, request.url));

  const page = path.join(root, 'index.html');
  if (!existsSync(page)) {
    // Started without a build (a deployment that skipped it): say how to get one, not a blank 404.
    const notBuilt = (_request: unknown, reply: FastifyReply) =>
      reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. `npm start` builds it; or run `pnpm --filter @shortlinks/web build` and restart the server.\n');
    app.get('/', notBuilt);
    app.get('/*', notBuilt);
    return;
  }

  await app.register(fastifyStatic, {
    root: path.join(root, 'assets'),
    prefix: '/assets/',
    index: false,
    redirect: false,
    cacheControl: false,
    // index.html goes through here too (reply.sendFile below), and must never be kept unasked.
    setHeaders: (reply: FastifyReply, file: string) =>
      reply.header('cache-control', path.basename(file) === 'index.html' ? PAGE_CACHE : ASSET_CACHE),
  });

  const sendPage = (reply: FastifyReply) => reply.sendFile('index.html', root);
  app.get('/', (_request, reply) => sendPage(reply));
  // A client-side route is a path without a file extension; a missing file (/app/x.js) is a 404,
  // not the page, so a stale or mistyped asset fails visibly.
  app.get('/*', (request, reply) => {
    const last = request.url.split('?')[0]!.split('/').pop() ?? '';
    return last.includes('.') ? notFound(reply, request.url) : sendPage(reply);
  });
}

function notFound(reply: FastifyReply, url: string): FastifyReply {
  return reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`Nothing is served at ${url.split('?')[0]}\n`);
}
