import { type AppRouter, everyProcedureMeta, type Meta } from '@shortlinks/api';
import {
  CSV_FORMULAS,
  ERRORS,
  ErrorBodySchema,
  type ErrorCode,
  EXPORT_COLUMNS,
  EXPORT_FORMATS,
  EXPORT_MEDIA_TYPES,
  errorExample,
  LIMITS,
  SCOPES,
} from '@shortlinks/contract';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { addFileOperation } from './openapi-file-operations.ts';
import { addImageOperation } from './openapi-image-operations.ts';

// biome-ignore lint/suspicious/noExplicitAny: a generated schema, read where it is known to be
type Json = any;

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: unknown; description?: string }[];
  responses: Record<string, unknown>;
  [key: string]: unknown;
};

const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': seconds("Requests the API key (or, without one, the client address) may make per window; set by the account's plan."),
  'RateLimit-Remaining': seconds('Requests left in the current window.'),
  'RateLimit-Reset': seconds('Seconds until the window resets.'),
};
const RETRY_AFTER = seconds('Seconds to wait before retrying.');

/**
 * The OpenAPI 3.1 document of /api/v1. trpc-to-openapi generates the paths and schemas from the
 * router; this fixes what it cannot know: each operation's real success status (201, 204,
 * 200/201 for upsert, and all/some/none for bulk calls), our error body, and the comma-separated
 * `tag_ids` and `ids` query parameters.
 */
export function buildOpenApiDocument(router: AppRouter, baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(router, {
    title: 'Shortlinks API',
    version: '1.0.0',
    description:
      'Short links and the tags that group them. Every request needs `Authorization: Bearer <API key>`. ' +
      'Timestamps are Unix epoch milliseconds. Errors are `{ code, message, field? }`.',
    baseUrl,
    docsUrl: '/docs',
    tags: ['Links', 'Tags', 'Statistics'],
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, e.g. `slk_…`' } },
    defs: { Error: ErrorBodySchema },
  });

  const errorSchema = { $ref: '#/components/schemas/Error' };
  /** One response per status, listing its codes, with an example of each (the operation's own, if it has one). */
  const errorResponse = (codes: ErrorCode[], meta: Meta) => ({
    description: codes.join(' or '),
    content: {
      'application/json': {
        schema: errorSchema,
        examples: Object.fromEntries(codes.map((code) => [code, { value: errorExample(code, exampleOf(code, meta)) }])),
      },
    },
  });

  for (const [, meta] of everyProcedureMeta()) if (meta.streamed) addStreamedOperation(document, meta);
  for (const [, meta] of everyProcedureMeta()) if (meta.file) addFileOperation(document, meta);
  for (const [, meta] of everyProcedureMeta()) if (meta.image) addImageOperation(document, meta);

  for (const [name, meta] of everyProcedureMeta()) {
    const operation = (document.paths?.[meta.openapi.path] as Record<string, Operation> | undefined)?.[meta.openapi.method.toLowerCase()];
    if (!operation) continue;
    operation.operationId = name.replace('.', '_');
    // The least role that may call it (docs/accounts.md, "Roles"), for people reading the document and for tools.
    (operation as Operation & { 'x-role'?: string })['x-role'] = meta.role;
    // The scope an API key needs (docs/accounts.md, "Keys and scopes"), as an extension and as the
    // security requirement's scopes, so generators and people see it.
    const scope = meta.scope;
    (operation as Operation & { 'x-scope'?: string })['x-scope'] = scope;
    const keyScopes = scope === 'every-scope' ? [...SCOPES] : scope === 'session' || scope === 'anyone' ? [] : [scope];
    operation.security = [{ bearerAuth: keyScopes }];
    const needs =
      keyScopes.length === 1
        ? ` An API key needs the scope \`${scope}\`${scope.endsWith('.read') ? ` (or \`${scope.replace(/\.read$/, '.write')}\`)` : ''}.`
        : '';
    operation.description = `${operation.description ? `${operation.description}\n\n` : ''}Needs the role \`${meta.role}\`${meta.role === 'owner' ? '' : ' or above'} in the workspace.${needs}`;

    const success = operation.responses['200'] as { content?: unknown; description?: string } | undefined;
    const responses: Record<string, unknown> = {};
    if (typeof meta.success === 'object') {
      const { bulk, itemErrors } = meta.success;
      responses[String(bulk)] = { ...success, description: 'Every item was done' };
      responses['207'] = { ...success, description: 'Some items were done; each refused one carries its error' };
      operation.description = `${operation.description ?? ''}\n\nAn item may be refused with: ${itemErrors
        .map((code) => `${ERRORS[code].status} \`${code}\``)
        .join(', ')}.`;
    } else if (meta.success === 'createdOrFound') {
      responses['200'] = { ...success, description: 'An existing live link matched (`created: false`)' };
      responses['201'] = { ...success, description: 'A new link was created (`created: true`)' };
    } else if (meta.success === 204) {
      responses['204'] = { description: success?.description ?? 'No content' };
    } else {
      responses[String(meta.success)] = success;
    }
    const hasBody = meta.openapi.method === 'POST' || meta.openapi.method === 'PATCH';
    const codes: ErrorCode[] = [
      // A file as the body (the import) is never parsed as JSON.
      ...(hasBody && !meta.file ? (['INVALID_JSON'] as const) : []),
      ...(hasBody ? (['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const) : []),
      'UNAUTHORIZED',
      // A key made by a person acts with their role: below the operation's, it is refused.
      // A key without the operation's scope is refused, whatever its role.
      ...(meta.role === 'anyone' ? [] : (['FORBIDDEN'] as const)),
      ...meta.errors,
      'RATE_LIMITED',
      // Any call may meet the database down or restarting (docs/operations.md).
      'DATABASE_UNAVAILABLE',
    ];
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
    for (const status of [...byStatus.keys()].sort()) responses[String(status)] = errorResponse(byStatus.get(status) ?? [], meta);
    if (typeof meta.success === 'object') {
      // A bulk call none of whose items was done answers 422 with its results; a request refused
      // as a whole, 422 with the error body.
      const refused = responses['422'] as ReturnType<typeof errorResponse>;
      const media = refused.content['application/json'];
      responses['422'] = {
        description: `No item was done (the results), or ${refused.description} for the request itself`,
        content: {
          'application/json': { ...media, schema: { oneOf: [(success?.content as Json)?.['application/json']?.schema, errorSchema] } },
        },
      };
    }
    // Every answer carries the key's rate-limit state; a 429 also says when to retry (docs/security.md).
    for (const [status, response] of Object.entries(responses)) {
      const retries = status === '429' || status === '503';
      const headers = retries ? { ...RATE_LIMIT_HEADERS, 'Retry-After': RETRY_AFTER } : RATE_LIMIT_HEADERS;
      responses[status] = { ...(response as object), headers };
    }
    operation.responses = responses;

    for (const parameter of operation.parameters ?? []) {
      // On REST the filter is one comma-separated string (the tRPC input also takes an array).
      if (parameter.in === 'query' && parameter.name === 'tag_ids') {
        parameter.schema = { type: 'string', example: 'tag_4hG7Qx2LpZ,tag_9sKd02LmQa' };
        parameter.description = 'Comma-separated tag ids, at most 20; returns links carrying any of them.';
      }
      if (parameter.in === 'query' && parameter.name === 'ids') {
        parameter.schema = { type: 'string', example: 'lnk_V1StGXR8Z5jdHi,ext_order-1234' };
        parameter.description =
          'Comma-separated links (`lnk_` id or `ext_` + external id), 1 to 100, each once. The value is split on commas after it is ' +
          'decoded (`%2C` splits too), so name an external id holding a comma in a repeated `ids=`, whose values are never split: ' +
          '`ids=ext_a%2Cb&ids=lnk_c`, or alone `ids=ext_a%2Cb&ids=` (an empty `ids=` counts for nothing).';
      }
    }
  }
  return document;
}

/**
 * The operation of a streamed file (GET /links/export), which trpc-to-openapi leaves out: its
 * `format` parameter and one success with each format's media type. The loop above adds its
 * errors and headers like any operation's.
 */
function addStreamedOperation(document: OpenAPIObject, meta: Meta): void {
  const { path, method, summary, description, tags } = meta.openapi;
  const header = EXPORT_COLUMNS.join(',');
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
          description: '`csv` (the default) or `jsonl`; anything else is 422 VALIDATION_ERROR with `field: "format"`.',
          schema: { type: 'string', enum: [...EXPORT_FORMATS], default: 'csv' },
        },
        {
          name: 'csv_formulas',
          in: 'query',
          required: false,
          description:
            "`guarded` (the default): a CSV cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a `'` in " +
            "front (and a value starting with `'` and then one of those with one more), so a spreadsheet shows it as text instead of " +
            'running it as a formula; `pnpm shortlinks import` reads the file back to the exact values. `raw`: every value as it is, ' +
            'for programs. No effect on `jsonl`, which is always raw. Anything else is 422 VALIDATION_ERROR with `field: "csv_formulas"`.',
          schema: { type: 'string', enum: [...CSV_FORMULAS], default: 'guarded' },
        },
        {
          name: 'search',
          in: 'query',
          required: false,
          description: 'Only the links GET /links finds with this search (title, destination_url, slug or external_id, ignoring case).',
          schema: { type: 'string', maxLength: LIMITS.searchChars },
        },
        {
          name: 'tag_ids',
          in: 'query',
          required: false,
          description: 'Only links carrying any of these tags: comma-separated tag ids, at most 20 (with search: links matching both).',
          schema: { type: 'string', example: 'tag_4hG7Qx2LpZ,tag_9sKd02LmQa' },
        },
      ],
      responses: {
        '200': {
          description: 'The export file, streamed (chunked): every live link of the account, oldest first.',
          content: {
            [mediaType(EXPORT_MEDIA_TYPES.csv)]: {
              schema: { type: 'string', description: 'RFC 4180 CSV, UTF-8, a header row first.' },
              example: `${header}\r\n`,
            },
            [mediaType(EXPORT_MEDIA_TYPES.jsonl)]: {
              schema: { type: 'string', description: 'JSON Lines: one JSON object a line, with the CSV columns as keys.' },
            },
          },
        },
      },
    },
  };
}

/** The operation's own example of an error: a refusal names the scope a key lacks, when the operation has one. */
function exampleOf(code: ErrorCode, meta: Meta) {
  const own = meta.errorExamples?.[code];
  if (own || code !== 'FORBIDDEN' || !(SCOPES as readonly string[]).includes(meta.scope)) return own;
  return { message: `This key lacks the scope ${meta.scope}` };
}

const mediaType = (contentType: string) => contentType.split(';')[0] ?? contentType;
