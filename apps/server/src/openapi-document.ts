import type { AppRouter } from '@shortlinks/api';
import { ERROR_STATUS, type ErrorBody, ErrorBodySchema, type ErrorCode } from '@shortlinks/contract';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: unknown; description?: string }[];
  responses: Record<string, unknown>;
  [key: string]: unknown;
};

const CREATE_ERRORS: ErrorCode[] = [
  'LINK_LIMIT_REACHED',
  'PLAN_LIMIT_REACHED',
  'TAG_NOT_FOUND',
  'SLUG_TAKEN',
  'EXTERNAL_ID_TAKEN',
  'VALIDATION_ERROR',
  'SLUG_INVALID',
  'REPUTATION_UNAVAILABLE',
];

/** The error codes each operation can answer, beyond 401 (all) and 400/413/415 (those with a body). */
const ERRORS_BY_PROCEDURE: Record<string, ErrorCode[]> = {
  'links.create': CREATE_ERRORS,
  'links.upsert': CREATE_ERRORS,
  'links.list': ['VALIDATION_ERROR'],
  'links.get': ['LINK_NOT_FOUND'],
  'links.update': ['PLAN_LIMIT_REACHED', 'LINK_NOT_FOUND', 'TAG_NOT_FOUND', 'VALIDATION_ERROR', 'REPUTATION_UNAVAILABLE'],
  'links.delete': ['LINK_NOT_FOUND'],
  'tags.create': ['PLAN_LIMIT_REACHED', 'TAG_NAME_TAKEN', 'VALIDATION_ERROR'],
  'tags.list': [],
  'tags.update': ['TAG_NOT_FOUND', 'TAG_NAME_TAKEN', 'VALIDATION_ERROR'],
  'tags.delete': ['TAG_NOT_FOUND'],
  'stats.link': ['LINK_NOT_FOUND', 'VALIDATION_ERROR'],
  'stats.tag': ['TAG_NOT_FOUND', 'VALIDATION_ERROR'],
  'stats.account': ['VALIDATION_ERROR'],
};

const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': seconds("Requests the API key (or, without one, the client address) may make per window; set by the account's plan."),
  'RateLimit-Remaining': seconds('Requests left in the current window.'),
  'RateLimit-Reset': seconds('Seconds until the window resets.'),
};
const RETRY_AFTER = seconds('Seconds to wait before retrying.');

/** An example body for each code, as the API answers it. */
const ERROR_EXAMPLES: Partial<Record<ErrorCode, ErrorBody>> = {
  INVALID_JSON: { code: 'INVALID_JSON', message: 'The body is not valid JSON' },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', message: 'Send a valid API key as "Authorization: Bearer <key>"' },
  LINK_LIMIT_REACHED: { code: 'LINK_LIMIT_REACHED', message: "The account is at its plan's limit of 1000 links" },
  PLAN_LIMIT_REACHED: { code: 'PLAN_LIMIT_REACHED', message: "The account is at its plan's limit of 25 tags" },
  TAG_NOT_FOUND: { code: 'TAG_NOT_FOUND', message: "Tag tag_4hG7Qx2LpZ is not one of the account's tags" },
  LINK_NOT_FOUND: { code: 'LINK_NOT_FOUND', message: 'No live link of the account matches that id' },
  SLUG_TAKEN: { code: 'SLUG_TAKEN', message: 'The slug "launch" is already in use', field: 'slug' },
  EXTERNAL_ID_TAKEN: { code: 'EXTERNAL_ID_TAKEN', message: 'Another live link of the account has that external_id', field: 'external_id' },
  TAG_NAME_TAKEN: { code: 'TAG_NAME_TAKEN', message: 'Another tag of the account is named "News" (ignoring case)', field: 'name' },
  UNSUPPORTED_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as JSON with Content-Type: application/json' },
  SLUG_INVALID: { code: 'SLUG_INVALID', message: '"docs" is a reserved word and cannot be used as a slug', field: 'slug' },
  VALIDATION_ERROR: { code: 'VALIDATION_ERROR', message: 'title must not be empty', field: 'title' },
  PAYLOAD_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large (at most 65536 bytes)' },
  RATE_LIMITED: { code: 'RATE_LIMITED', message: 'Too many requests for this API key; retry in 12 seconds' },
  REPUTATION_UNAVAILABLE: {
    code: 'REPUTATION_UNAVAILABLE',
    message: 'The URL safety check is unavailable, so the destination cannot be accepted now; retry later',
    field: 'destination_url',
  },
};

/**
 * The OpenAPI 3.1 document of /api/v1. trpc-to-openapi generates the paths and schemas from the
 * router; this fixes what it cannot know: each operation's real success status (201, 204, and
 * 200/201 for upsert), our error body, and the comma-separated `tag_ids` query parameter.
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
  /** One response per status, listing its codes, with an example of each. */
  const errorResponse = (codes: ErrorCode[]) => ({
    description: codes.join(' or '),
    content: {
      'application/json': {
        schema: errorSchema,
        examples: Object.fromEntries(codes.map((code) => [code, { value: ERROR_EXAMPLES[code] }])),
      },
    },
  });

  const procedures = router._def.procedures as unknown as Record<
    string,
    { _def: { meta?: { openapi?: { method: string; path: string }; successStatus?: number } } }
  >;
  for (const [name, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const operation = (document.paths?.[meta.openapi.path] as Record<string, Operation> | undefined)?.[meta.openapi.method.toLowerCase()];
    if (!operation) continue;
    operation.operationId = name.replace('.', '_');

    const success = operation.responses['200'] as { content?: unknown; description?: string } | undefined;
    const responses: Record<string, unknown> = {};
    if (name === 'links.upsert') {
      responses['200'] = { ...success, description: 'An existing live link matched (`created: false`)' };
      responses['201'] = { ...success, description: 'A new link was created (`created: true`)' };
    } else if (meta.successStatus === 204) {
      responses['204'] = { description: success?.description ?? 'No content' };
    } else {
      responses[String(meta.successStatus ?? 200)] = success;
    }
    const hasBody = meta.openapi.method === 'POST' || meta.openapi.method === 'PATCH';
    const codes: ErrorCode[] = [
      ...(hasBody ? (['INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const) : []),
      'UNAUTHORIZED',
      ...(ERRORS_BY_PROCEDURE[name] ?? []),
      'RATE_LIMITED',
    ];
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const status of [...byStatus.keys()].sort()) responses[String(status)] = errorResponse(byStatus.get(status) ?? []);
    // Every answer carries the key's rate-limit state; a 429 also says when to retry (docs/security.md).
    for (const [status, response] of Object.entries(responses)) {
      const headers = status === '429' ? { ...RATE_LIMIT_HEADERS, 'Retry-After': RETRY_AFTER } : RATE_LIMIT_HEADERS;
      responses[status] = { ...(response as object), headers };
    }
    operation.responses = responses;

    for (const parameter of operation.parameters ?? []) {
      // On REST the filter is one comma-separated string (the tRPC input also takes an array).
      if (parameter.in === 'query' && parameter.name === 'tag_ids') {
        parameter.schema = { type: 'string', example: 'tag_4hG7Qx2LpZ,tag_9sKd02LmQa' };
        parameter.description = 'Comma-separated tag ids, at most 20; returns links carrying any of them.';
      }
    }
  }
  return document;
}
