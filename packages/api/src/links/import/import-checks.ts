import { type CreateLinkBody, CreateLinkBodySchema, LIMITS } from '@shortlinks/contract';
import { AppError, fromZodError, validationError } from '../../errors.ts';
import { isArgon2idHash } from '../../redirects/link-password.ts';
import type { SmartChange } from '../smart-link-fields.ts';
import type { ImportedLink } from './import-row.ts';

/** An imported link that passed the API's field rules, before its URLs are checked (destinations, reputation). */
export interface CheckedLink {
  slug: string | undefined;
  destination_url: string;
  /** Absent when the file carries none: a new link is then titled after its destination. */
  title: string | undefined;
  tag_names: string[] | undefined;
  external_id: string | undefined;
  comments: string | null | undefined;
  expires_at: Date | null | undefined;
  expiration_url: string | undefined;
  created_at: Date | undefined;
  /** The domain the file names, as written. */
  domain: string | undefined;
  /** The domain the row goes on, once the import has resolved it: an id, or null for the server's own. */
  domainId?: string | null;
  /** The smart fields the row carries (issue #30), their URLs not yet checked. */
  smart: Pick<CreateLinkBody, 'max_clicks' | 'rules' | 'preview'>;
  password_hash: string | undefined;
  /** The smart fields once their URLs are checked, as the link stores them (link-import.ts). */
  checkedSmart?: SmartChange | undefined;
}

/**
 * The API's rules for a link's fields (POST /links), applied to an imported row, with the
 * differences an import needs (docs/import-export.md): an expiry in the past is kept (the link
 * arrives already expired, as it was), and `created_at` is kept but may not lie in the future.
 */
export function checkImportedLink(link: ImportedLink, now: number): CheckedLink {
  const body = {
    title: link.title ?? 'untitled',
    destination_url: link.destination_url,
    ...(link.slug === undefined ? {} : { slug: link.slug }),
    ...(link.tag_names === undefined ? {} : { tag_names: link.tag_names }),
    ...(link.external_id === undefined ? {} : { external_id: link.external_id }),
    ...(link.comments === undefined ? {} : { comments: link.comments }),
    ...(link.expiration_url === undefined ? {} : { expiration_url: link.expiration_url }),
    ...(link.max_clicks === undefined ? {} : { max_clicks: link.max_clicks }),
    ...(link.rules === undefined ? {} : { rules: link.rules }),
    ...(link.preview === undefined ? {} : { preview: link.preview }),
  };
  const parsed = CreateLinkBodySchema.safeParse(body);
  if (!parsed.success) throw fromZodError(parsed.error, body);
  const checked = parsed.data;

  const names = new Set((checked.tag_names ?? []).map((name) => name.toLowerCase()));
  if (names.size > LIMITS.tagsPerLink) throw validationError('tag_names', `a link carries at most ${LIMITS.tagsPerLink} tags`);

  const expiresAt = link.expires_at === undefined ? undefined : timestamp('expires_at', link.expires_at);
  if (expiresAt !== undefined) {
    const latest = new Date(now);
    latest.setUTCFullYear(latest.getUTCFullYear() + LIMITS.expiryYearsAhead);
    if (expiresAt > latest) throw validationError('expires_at', `expires_at must be at most ${LIMITS.expiryYearsAhead} years ahead`);
  }
  const expirationUrl = checked.expiration_url || undefined;
  if (expirationUrl !== undefined && expiresAt === undefined) throw validationError('expiration_url', 'expiration_url requires expires_at');

  const createdAt = link.created_at === undefined ? undefined : timestamp('created_at', link.created_at);
  if (createdAt !== undefined && createdAt.getTime() > now) throw validationError('created_at', 'created_at must not be in the future');

  if (link.password_hash !== undefined && !isArgon2idHash(link.password_hash)) {
    throw validationError('password_hash', 'password_hash must be an argon2id hash, as an export writes it');
  }

  return {
    slug: checked.slug,
    destination_url: checked.destination_url,
    title: link.title === undefined ? undefined : checked.title,
    tag_names: checked.tag_names,
    external_id: checked.external_id,
    comments: link.comments === undefined ? undefined : checked.comments || null,
    expires_at: expiresAt,
    expiration_url: expirationUrl,
    created_at: createdAt,
    domain: link.domain,
    smart: { max_clicks: checked.max_clicks, rules: checked.rules, preview: checked.preview },
    password_hash: link.password_hash,
  };
}

/** The title of a new link whose file carries none: its destination without the scheme, as a list shows it. */
export function titleFromDestination(destination: string): string {
  const shown = destination.replace(/^https?:\/\//i, '');
  return [...shown].slice(0, LIMITS.titleChars).join('');
}

function timestamp(field: 'expires_at' | 'created_at', ms: number): Date {
  const date = new Date(ms);
  if (!Number.isInteger(ms) || Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION_ERROR', `${field} must be a valid time`, field);
  }
  return date;
}
