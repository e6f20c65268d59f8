import type { Preview, RedirectRule } from '@shortlinks/contract';
import type { SmartFields } from '../links/smart-link-fields.ts';
import { type CompiledRules, compileRules } from './redirect-rules.ts';

/** What the redirect cache keeps of a smart link (issue #30): everything a visit decides on, parsed once. */
export interface SmartRedirect {
  /** The argon2id hash of the link's password. */
  passwordHash: string | null;
  maxClicks: number | null;
  /** Compiled once, here: a visit only checks them (redirect-rules.ts). */
  rules: CompiledRules | null;
  preview: Preview | null;
}

/** The link's smart fields as the cache keeps them; null for a link with none (the fast path's plain link). */
export function smartRedirectOf(row: SmartFields): SmartRedirect | null {
  if (row.password_hash === null && row.max_clicks === null && row.rules === null && row.preview === null) return null;
  return {
    passwordHash: row.password_hash,
    maxClicks: row.max_clicks,
    rules: row.rules === null ? null : compileRules(JSON.parse(row.rules) as RedirectRule[]),
    preview: row.preview === null ? null : (JSON.parse(row.preview) as Preview),
  };
}
