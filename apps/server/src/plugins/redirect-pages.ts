import type { FastifyReply } from 'fastify';

/** The small pages a visitor sees when a short link does not redirect. */
function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#1e293b;display:grid;place-items:center;min-height:90vh;margin:0}
main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.5rem;margin:0 0 .5rem}p{color:#475569;margin:0}</style>
</head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>
`;
}

export const NOT_FOUND_PAGE = page('Link not found', 'This short link does not exist, or it has been deleted.');
export const GONE_PAGE = page('Link expired', 'This short link has expired and no longer leads anywhere.');
export const UNAVAILABLE_PAGE = page(
  'Temporarily unavailable',
  'This short link cannot be looked up right now. Please try again in a few seconds.',
);
/** Seconds a visitor's browser or a crawler is told to wait when the database cannot be reached. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
export const HOME_PAGE = page(
  'Shortlinks',
  'A short-link service. <a href="/app">Open the dashboard</a> to manage your links and see their clicks; the API is documented at <a href="/docs">/docs</a>.',
);

/** A visitor's page: never cached (the link may start working) and never indexed. */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(html);
}
