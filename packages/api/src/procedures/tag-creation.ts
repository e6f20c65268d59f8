import { scopeGranted } from '@shortlinks/contract';
import { AppError } from '../errors.ts';
import { NO_TAG_CREATION } from '../links/link-writes.ts';
import type { Context } from './context.ts';

/**
 * Creating tags through a link's `tag_names` needs `tags.write` as well as `links.write`;
 * attaching existing tags needs only `links.write` (docs/accounts.md, "Keys and scopes"). Whether
 * the caller may create them: a person (their role governs) or a key holding `tags.write`.
 */
export function mayCreateTags(ctx: Context): boolean {
  const scopes = ctx.caller?.scopes;
  return scopes === null || scopes === undefined || scopeGranted(scopes, 'tags.write');
}

/**
 * Refuses a whole call (a bulk one) with 403 before anything is written when a key without
 * `tags.write` names a tag that does not exist. The writes refuse it again, in their transaction,
 * should a tag go in between (link-writes.ts).
 */
export async function refuseNewTagNames(ctx: Context, accountId: string, names: readonly string[]): Promise<void> {
  if (names.length === 0 || mayCreateTags(ctx)) return;
  if ((await ctx.services.tags.namesMissing(accountId, names)).length > 0) throw new AppError('FORBIDDEN', NO_TAG_CREATION);
}
