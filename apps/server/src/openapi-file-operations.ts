import type { Meta } from '@shortlinks/api';
import {
  CONFLICT_MODES,
  DEFAULT_IMPORT_MAX_BYTES,
  IMPORT_FORMATS,
  IMPORT_MEDIA_TYPES,
  ImportLinksQuerySchema,
  ImportReportSchema,
} from '@shortlinks/contract';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';

/**
 * The operation of a procedure whose REST body is a file (POST /links/import), which
 * trpc-to-openapi leaves out (it would describe a JSON body): the query's parameters, the file as
 * the body in each media type taken, and the report as the answer. The document's loop adds its
 * errors and headers like any operation's.
 */
export function addFileOperation(document: OpenAPIObject, meta: Meta): void {
  const { path, method, summary, description, tags } = meta.openapi;
  const query = z.toJSONSchema(ImportLinksQuerySchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, { description?: string }>;
  };
  const described = (name: string) => query.properties[name]?.description;
  const file = {
    schema: { type: 'string', maxLength: DEFAULT_IMPORT_MAX_BYTES },
  };
  document.paths ??= {};
  const paths = document.paths as Record<string, Record<string, unknown>>;
  paths[path] = {
    ...paths[path],
    [method.toLowerCase()]: {
      summary,
      description,
      tags,
      security: [{ bearerAuth: [] }],
      parameters: [
        {
          name: 'format',
          in: 'query',
          required: false,
          description: described('format'),
          schema: { type: 'string', enum: [...IMPORT_FORMATS] },
        },
        {
          name: 'on_conflict',
          in: 'query',
          required: false,
          description: described('on_conflict'),
          schema: { type: 'string', enum: [...CONFLICT_MODES], default: 'skip' },
        },
        { name: 'dry_run', in: 'query', required: false, description: described('dry_run'), schema: { type: 'boolean', default: false } },
      ],
      requestBody: {
        required: true,
        description:
          `The import file itself, UTF-8, at most IMPORT_MAX_BYTES (${DEFAULT_IMPORT_MAX_BYTES} bytes by default): larger is 413 ` +
          'PAYLOAD_TOO_LARGE, refused from its Content-Length before it is read, and nothing is imported.',
        content: Object.fromEntries(IMPORT_MEDIA_TYPES.map((type) => [type, file])),
      },
      responses: {
        '200': {
          description:
            'The report: the counts, the first 1000 rows applied and the first 1000 refused (a list shorter than its count was cut).',
          content: { 'application/json': { schema: withoutDialect(z.toJSONSchema(ImportReportSchema, { io: 'output' })) } },
        },
      },
    },
  };
}

/** A schema as the document holds it: the document's dialect is OpenAPI 3.1's own. */
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
