import type { AppRouter } from '@shortlinks/api';
import { ErrorBodySchema } from '@shortlinks/contract';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; schema?: unknown; description?: string }[];
  responses: Record<string, unknown>;
  [key: string]: unknown;
};

/** The error statuses each operation can answer, beyond 401 (all) and 400/415 (those with a body). */
const ERRORS_BY_PROCEDURE: Record<string, Record<number, string>> = {
  'links.create': {
    403: 'LINK_LIMIT_REACHED or PLAN_LIMIT_REACHED',
    404: 'TAG_NOT_FOUND',
    409: 'SLUG_TAKEN or EXTERNAL_ID_TAKEN',
    422: 'VALIDATION_ERROR or SLUG_INVALID',
  },
  'links.upsert': {
    403: 'LINK_LIMIT_REACHED or PLAN_LIMIT_REACHED',
    404: 'TAG_NOT_FOUND',
    409: 'SLUG_TAKEN or EXTERNAL_ID_TAKEN',
    422: 'VALIDATION_ERROR or SLUG_INVALID',
  },
  'links.list': { 422: 'VALIDATION_ERROR' },
  'links.get': { 404: 'LINK_NOT_FOUND' },
  'links.update': { 403: 'PLAN_LIMIT_REACHED', 404: 'LINK_NOT_FOUND or TAG_NOT_FOUND', 409: 'EXTERNAL_ID_TAKEN', 422: 'VALIDATION_ERROR' },
  'links.delete': { 404: 'LINK_NOT_FOUND' },
  'tags.create': { 403: 'PLAN_LIMIT_REACHED', 409: 'TAG_NAME_TAKEN', 422: 'VALIDATION_ERROR' },
  'tags.list': {},
  'tags.update': { 404: 'TAG_NOT_FOUND', 409: 'TAG_NAME_TAKEN', 422: 'VALIDATION_ERROR' },
  'tags.delete': { 404: 'TAG_NOT_FOUND' },
};

const ERROR_EXAMPLES: Record<number, { code: string; message: string; field?: string }> = {
  400: { code: 'INVALID_JSON', message: 'The body is not valid JSON' },
  401: { code: 'UNAUTHORIZED', message: 'Send a valid API key as "Authorization: Bearer <key>"' },
  403: { code: 'LINK_LIMIT_REACHED', message: "The account is at its plan's limit of 1000 links" },
  404: { code: 'LINK_NOT_FOUND', message: 'No live link of the account matches that id' },
  409: { code: 'SLUG_TAKEN', message: 'The slug "launch" is already in use', field: 'slug' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as JSON with Content-Type: application/json' },
  422: { code: 'VALIDATION_ERROR', message: 'title must not be empty', field: 'title' },
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
    tags: ['Links', 'Tags'],
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, e.g. `slk_…`' } },
    defs: { Error: ErrorBodySchema },
  });

  const errorSchema = { $ref: '#/components/schemas/Error' };
  const errorResponse = (status: number, description: string) => ({
    description,
    content: { 'application/json': { schema: errorSchema, example: ERROR_EXAMPLES[status] } },
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
    if (hasBody) responses['400'] = errorResponse(400, 'INVALID_JSON');
    responses['401'] = errorResponse(401, 'UNAUTHORIZED: missing or invalid API key');
    for (const [status, codes] of Object.entries(ERRORS_BY_PROCEDURE[name] ?? {})) {
      responses[status] = errorResponse(Number(status), codes);
    }
    if (hasBody) responses['415'] = errorResponse(415, 'UNSUPPORTED_MEDIA_TYPE');
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
