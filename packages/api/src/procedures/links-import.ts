import { DEFAULT_IMPORT_MAX_BYTES, IMPORT_MEDIA_TYPES, ImportLinksInputSchema, ImportReportSchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { mayCreateTags } from './tag-creation.ts';
import { authedProcedure } from './trpc.ts';

/**
 * POST /links/import (issue #32): an import file, in any format `pnpm shortlinks import` reads,
 * applied under the API's rules, with the CLI's report. Over tRPC the file is the `file` field's
 * text; REST takes it as the raw body (the server's REST plugin maps it onto `file`, which
 * trpc-to-openapi cannot, and the OpenAPI document describes it from this meta).
 */
export const linksImportRouter = {
  import: authedProcedure({
    openapi: {
      method: 'POST',
      path: '/links/import',
      tags: ['Links'],
      summary: 'Import links from a file: ours (CSV, JSON Lines) or Shlink, Bitly, Kutt and YOURLS exports',
      description:
        "The body is the file itself (at most the server's IMPORT_MAX_BYTES, 10 MiB by default; larger is 413 PAYLOAD_TOO_LARGE " +
        'and nothing is read). Its format is detected as `pnpm shortlinks import` detects it unless `format` names one. Each row ' +
        'is applied under the rules of POST /links; a refused row is reported with its row number, code and message and does not ' +
        'stop the others. `dry_run=true` checks every row and writes nothing. The call spends 1 of the rate limit plus 1 per ' +
        '256 KiB of file. The format and the rules are described in docs/import-export.md.',
      protect: true,
      enabled: false,
    },
    success: 200,
    role: 'member',
    scope: 'links.write',
    errors: ['VALIDATION_ERROR', 'UNKNOWN_FORMAT', 'MALFORMED_FILE'],
    errorExamples: {
      VALIDATION_ERROR: { message: 'on_conflict must be one of skip, update, fail', field: 'on_conflict' },
      PAYLOAD_TOO_LARGE: { message: `The file must be at most ${DEFAULT_IMPORT_MAX_BYTES} bytes (IMPORT_MAX_BYTES)`, field: 'file' },
      UNSUPPORTED_MEDIA_TYPE: { message: `Send the file as the body, with Content-Type ${IMPORT_MEDIA_TYPES.join(', ')}` },
      MALFORMED_FILE: { message: 'the CSV cannot be read from line 12 on: Quote Not Closed', field: 'file' },
    },
    file: 'file',
  })
    .input(ImportLinksInputSchema)
    .output(ImportReportSchema)
    .mutation(({ ctx, input }) => ctx.services.sentFileImport.import(ctx.accountId, input, mayCreateTags(ctx))),
} satisfies TRPCRouterRecord;
