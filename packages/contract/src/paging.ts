import { z } from 'zod';
import { LIMITS } from './limits.ts';

/**
 * `page` and `per_page` of every paged list (links, webhook deliveries, the audit log): one rule
 * and one wording for all. Query values arrive as text over REST; typed callers (tRPC, the
 * client) send numbers.
 */
export const PAGE_FIELDS = {
  page: z.coerce
    .number<number>({ error: 'page must be a whole number from 1' })
    .int('page must be a whole number from 1')
    .min(1, 'page must be a whole number from 1')
    .max(LIMITS.pageMax, `page must be at most ${LIMITS.pageMax}`)
    .default(1),
  per_page: z.coerce
    .number<number>({ error: `per_page must be a whole number from 1 to ${LIMITS.perPageMax}` })
    .int(`per_page must be a whole number from 1 to ${LIMITS.perPageMax}`)
    .min(1, `per_page must be a whole number from 1 to ${LIMITS.perPageMax}`)
    .max(LIMITS.perPageMax, `per_page must be a whole number from 1 to ${LIMITS.perPageMax}`)
    .default(LIMITS.perPageDefault),
};
