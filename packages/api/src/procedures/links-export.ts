import { ExportLinksQuerySchema, exportFormatOf } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { SERVED_EXPORT_PAGE_SIZE } from '../links/export/link-export.ts';
import { authedProcedure } from './trpc.ts';

export const linksExportRouter = {
  /**
   * The export file, streamed in chunks of text (docs/import-export.md). tRPC streams it to a
   * client on httpBatchStreamLink; REST answers it as the file itself with its media type, which
   * trpc-to-openapi cannot, so the server's REST plugin serves this path by calling this procedure
   * (`streamed`), and the OpenAPI document describes it from this meta. The server caps the
   * exports an account runs at once and ends those read too slowly (apps/server's export-limits.ts).
   */
  export: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/links/export',
      tags: ['Links'],
      summary: 'Export every live link (or those a search and tags find) as CSV or JSON Lines, streamed',
      description:
        'All live links of the account, or those `search` and `tag_ids` find as GET /links finds them, oldest first, with their tags (by name), destination (UTM merged), external id, ' +
        "comments, expiry, fallback, click count and creation time. A CSV cell a spreadsheet would run as a formula starts with `'` " +
        'unless `csv_formulas=raw`. The format is described in docs/import-export.md.',
      protect: true,
      enabled: false,
    },
    success: 200,
    role: 'member',
    scope: 'links.read',
    errors: ['VALIDATION_ERROR'],
    streamed: true,
  })
    .input(ExportLinksQuerySchema)
    .query(({ ctx, input }) => ctx.services.linkExport.file(ctx.accountId, exportFormatOf(input), SERVED_EXPORT_PAGE_SIZE, input)),
} satisfies TRPCRouterRecord;
