import { LIMITS } from './limits.ts';

export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * Slugs that would shadow a path the server serves itself, or that a short-link service
 * keeps for its own future pages. Compared ignoring case, so `/Docs` cannot be taken either
 * (see docs/api-decisions.md).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  // Served by this server today.
  'api',
  'trpc',
  'docs',
  'healthz',
  'readyz',
  'favicon.ico',
  'robots.txt',
  'openapi',
  // The TLS proxy's question (docs/domains.md); a slug never holds a dot, kept for the route test.
  '.well-known',
  // Kept for pages a short-link service grows into.
  'admin',
  'app',
  'assets',
  'auth',
  'dashboard',
  'help',
  'login',
  'logout',
  'metrics',
  'settings',
  'signup',
  'static',
  'stats',
  'status',
  'well-known',
  'www',
]);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}

/** Why a requested slug is refused, or undefined when it is acceptable. */
export function slugProblem(slug: string): string | undefined {
  if (slug.length < 1 || slug.length > LIMITS.slugChars) return `slug must be 1 to ${LIMITS.slugChars} characters`;
  if (!SLUG_PATTERN.test(slug)) return 'slug may contain only letters, digits, "-" and "_"';
  if (isReservedSlug(slug)) return `"${slug}" is a reserved word and cannot be used as a slug`;
  return undefined;
}
