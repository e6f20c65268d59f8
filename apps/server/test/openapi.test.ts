import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked field by field
type Json = any;

let server: TestServer;
let document: Json;
let fetchStatus: number;
let fetchContentType: string | null;

beforeAll(async () => {
  server = await startTestServer();
  // Fetched without credentials: the document is public.
  const response = await fetch(`${server.api}/openapi.json`);
  fetchStatus = response.status;
  fetchContentType = response.headers.get('content-type');
  document = await response.json();
});
afterAll(() => server.close());

/** Every operation of the spec's "Endpoints" table, the statistics endpoints (docs/statistics.md), the export and the import (docs/import-export.md). */
const SPEC_OPERATIONS = [
  ['post', '/links'],
  ['get', '/links'],
  ['get', '/links/{id}'],
  ['patch', '/links/{id}'],
  ['delete', '/links/{id}'],
  ['post', '/links/upsert'],
  ['post', '/tags'],
  ['get', '/tags'],
  ['patch', '/tags/{id}'],
  ['delete', '/tags/{id}'],
  ['get', '/links/{id}/stats'],
  ['get', '/tags/{id}/stats'],
  ['get', '/stats'],
  ['get', '/links/export'],
  ['post', '/links/import'],
] as const;

/** The bulk calls (issue #14). */
const BULK_OPERATIONS = [
  ['post', '/links/bulk'],
  ['patch', '/links/bulk'],
  ['delete', '/links/bulk'],
] as const;

/** Follows local `$ref`s (`#/components/...`) until a non-reference object. */
function resolve(node: Json): Json {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
    const ref: string = current.$ref;
    expect(ref.startsWith('#/')).toBe(true);
    current = ref
      .slice(2)
      .split('/')
      .reduce((parent: Json, key) => parent?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  }
  return current;
}

function operation(method: string, path: string): Json {
  return document.paths?.[path]?.[method];
}

/** The JSON schema of a response (resolved), or undefined when it has no JSON content. */
function responseSchema(response: Json): Json {
  return resolve(resolve(response)?.content?.['application/json']?.schema);
}

/** Whether a schema is, or refers to, `#/components/schemas/<name>` (directly or through allOf/anyOf/oneOf). */
function refersTo(schema: Json, name: string): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (schema.$ref === `#/components/schemas/${name}`) return true;
  if (typeof schema.$ref === 'string') return refersTo(resolve(schema), name);
  return ['allOf', 'anyOf', 'oneOf'].some((key) => Array.isArray(schema[key]) && schema[key].some((part: Json) => refersTo(part, name)));
}

describe('GET /api/v1/openapi.json', () => {
  test('answers 200 with JSON', () => {
    expect(fetchStatus).toBe(200);
    expect(fetchContentType).toMatch(/^application\/json/);
  });

  test('is a valid OpenAPI 3.1 document', async () => {
    expect(String(document.openapi)).toMatch(/^3\.1(\.|$)/);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  test('the server URL ends in /api/v1', () => {
    const urls: string[] = (document.servers ?? []).map((entry: { url: string }) => entry.url);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/\/api\/v1\/?$/);
  });

  test.each(SPEC_OPERATIONS)('documents %s %s', (method, path) => {
    const found = operation(method, path);
    expect(found, `${method.toUpperCase()} ${path}`).toBeDefined();
    expect(typeof found.operationId).toBe('string');
  });

  test('path parameters {id} are documented as required path parameters', () => {
    for (const [method, path] of SPEC_OPERATIONS) {
      if (!path.includes('{id}')) continue;
      const parameters = [...(document.paths[path]?.parameters ?? []), ...(operation(method, path)?.parameters ?? [])].map(resolve);
      const id = parameters.find((parameter: Json) => parameter.name === 'id' && parameter.in === 'path');
      expect(id, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(id.required).toBe(true);
    }
  });

  test('operation ids are unique', () => {
    const ids = SPEC_OPERATIONS.map(([method, path]) => operation(method, path)?.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('success statuses are the real ones', () => {
  const successCodes = (method: string, path: string) =>
    Object.keys(operation(method, path)?.responses ?? {})
      .filter((status) => /^2\d\d$/.test(status))
      .sort();

  test.each([
    ['post', '/links', ['201']],
    ['get', '/links', ['200']],
    ['get', '/links/{id}', ['200']],
    ['patch', '/links/{id}', ['200']],
    ['delete', '/links/{id}', ['204']],
    ['post', '/links/upsert', ['200', '201']],
    ['post', '/tags', ['201']],
    ['get', '/tags', ['200']],
    ['patch', '/tags/{id}', ['200']],
    ['delete', '/tags/{id}', ['204']],
    ['get', '/links/{id}/stats', ['200']],
    ['get', '/tags/{id}/stats', ['200']],
    ['get', '/stats', ['200']],
  ] as const)('%s %s answers %j on success', (method, path, expected) => {
    expect(successCodes(method, path)).toEqual([...expected]);
  });

  test.each([
    ['delete', '/links/{id}'],
    ['delete', '/tags/{id}'],
  ] as const)('%s %s 204 has no content', (method, path) => {
    const response = resolve(operation(method, path).responses['204']);
    expect(response.description).toEqual(expect.any(String));
    expect(response.content === undefined || Object.keys(response.content).length === 0).toBe(true);
  });

  test.each([
    ['post', '/links', '201', 'Link'],
    ['get', '/links/{id}', '200', 'Link'],
    ['patch', '/links/{id}', '200', 'Link'],
    ['post', '/tags', '201', 'Tag'],
    ['patch', '/tags/{id}', '200', 'Tag'],
  ] as const)('%s %s %s returns the %s object', (method, path, status, schemaName) => {
    const response = operation(method, path).responses[status];
    const schema = responseSchema(response);
    expect(schema).toBeDefined();
    const expected = resolve({ $ref: `#/components/schemas/${schemaName}` });
    // Either a reference to the named schema or the same properties inline: resolved, it must list them.
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(Object.keys(expected.properties).sort());
  });

  test('the Link schema has the spec fields, with the optional ones not required', () => {
    const link = resolve({ $ref: '#/components/schemas/Link' });
    expect(link).toBeDefined();
    for (const field of [
      'id',
      'short_url',
      'destination_url',
      'title',
      'slug',
      'external_id',
      'comments',
      'expires_at',
      'expiration_url',
      'tags',
      'click_count',
      'created_at',
    ]) {
      expect(link.properties, field).toHaveProperty(field);
    }
    expect([...link.required].sort()).toEqual(['click_count', 'created_at', 'destination_url', 'id', 'short_url', 'slug', 'tags', 'title']);
  });

  test('both upsert responses carry the link plus created', () => {
    for (const status of ['200', '201']) {
      const schema = responseSchema(operation('post', '/links/upsert').responses[status]);
      const properties = schema?.properties ?? resolve(schema?.allOf?.[0])?.properties;
      expect(schema, status).toBeDefined();
      const all = { ...properties, ...Object.assign({}, ...(schema.allOf ?? []).map((part: Json) => resolve(part)?.properties ?? {})) };
      expect(all, status).toHaveProperty('created');
      expect(all, status).toHaveProperty('slug');
    }
  });
});

describe('bulk calls', () => {
  test.each([
    ['post', '/links/bulk', ['201', '207'], 'BulkCreateResult'],
    ['patch', '/links/bulk', ['200', '207'], 'BulkUpdateResult'],
    ['delete', '/links/bulk', ['200', '207'], 'BulkDeleteResult'],
  ] as const)('%s %s answers %j with the per-item results, and 422 with them or the Error body', (method, path, statuses, schemaName) => {
    const responses = operation(method, path).responses;
    expect(Object.keys(responses).filter((status) => /^2\d\d$/.test(status))).toEqual([...statuses]);
    for (const status of statuses) expect(refersTo(responses[status].content['application/json'].schema, schemaName)).toBe(true);
    const none = responses['422'].content['application/json'].schema;
    expect(refersTo(none, schemaName)).toBe(true);
    expect(refersTo(none, 'Error')).toBe(true);
    expect(responses['422'].content['application/json'].examples.VALIDATION_ERROR.value.code).toBe('VALIDATION_ERROR');
  });

  test.each([
    ['post', '/links/bulk', 'links'],
    ['patch', '/links/bulk', 'ids'],
    ['delete', '/links/bulk', 'ids'],
  ] as const)('%s %s: the example of a request refused as a whole names its own field, %s', (method, path, field) => {
    const example = operation(method, path).responses['422'].content['application/json'].examples.VALIDATION_ERROR.value;
    expect(example).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(example.message).toMatch(new RegExp(`^${field}\\b`));
  });

  test.each(BULK_OPERATIONS)('%s %s documents 401 and 429 with the Error schema, and requires the bearer scheme', (method, path) => {
    const found = operation(method, path);
    for (const status of ['401', '429']) expect(refersTo(found.responses[status].content['application/json'].schema, 'Error')).toBe(true);
    expect(found.security).toEqual(operation('post', '/links').security);
    expect(found.security?.length).toBeGreaterThan(0);
  });

  test.each([
    ['post', '/links/bulk', ['LINK_LIMIT_REACHED', 'SLUG_TAKEN', 'REPUTATION_UNAVAILABLE']],
    ['patch', '/links/bulk', ['LINK_NOT_FOUND', 'PLAN_LIMIT_REACHED']],
    ['delete', '/links/bulk', ['LINK_NOT_FOUND']],
  ] as const)('%s %s names the errors an item may get', (method, path, codes) => {
    for (const code of codes) expect(operation(method, path).description).toContain(`\`${code}\``);
  });

  test('POST and PATCH take a body (413 and 415 documented); DELETE takes ids in the query', () => {
    for (const method of ['post', 'patch'])
      expect(Object.keys(operation(method, '/links/bulk').responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
    const ids = operation('delete', '/links/bulk').parameters.find((parameter: Json) => parameter.name === 'ids');
    expect(ids).toMatchObject({ in: 'query', required: true, schema: { type: 'string' } });
    // How to name an external id holding a comma, alone (docs/api-decisions.md).
    expect(ids.description).toContain('`ids=ext_a%2Cb&ids=`');
  });

  test('each item of POST /links/bulk is the POST /links body', () => {
    const bulk = resolve(operation('post', '/links/bulk').requestBody.content['application/json'].schema);
    const single = resolve(operation('post', '/links').requestBody.content['application/json'].schema);
    expect(bulk.properties.links).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 });
    expect(resolve(bulk.properties.links.items)).toEqual(single);
  });
});

describe('the link list', () => {
  test('GET /links documents search, sort and order beside page, per_page and tag_ids, and its 422', () => {
    const list = operation('get', '/links');
    const parameters = (list.parameters ?? []).map(resolve);
    const query = parameters.filter((parameter: Json) => parameter.in === 'query');
    expect(query.map((parameter: Json) => parameter.name).sort()).toEqual([
      'domain',
      'order',
      'page',
      'per_page',
      'search',
      'sort',
      'tag_ids',
    ]);
    const schemaOf = (name: string) => resolve(query.find((parameter: Json) => parameter.name === name).schema);
    expect(schemaOf('sort').enum).toEqual(['created_at', 'click_count', 'title']);
    expect(schemaOf('order').enum).toEqual(['asc', 'desc']);
    expect(list.responses).toHaveProperty('422');
  });

  test('search and order carry their descriptions, and search its 200-character limit', () => {
    const query = (operation('get', '/links').parameters ?? []).map(resolve);
    const parameter = (name: string) => query.find((found: Json) => found.name === name);
    const described = (found: Json) => found.description ?? resolve(found.schema).description;
    expect(described(parameter('search'))).toContain('At most 200 characters');
    expect(resolve(parameter('search').schema).maxLength).toBe(200);
    expect(described(parameter('order'))).toContain('asc or desc');
  });
});

describe('statistics', () => {
  test.each([
    ['/links/{id}/stats', 'LinkStats'],
    ['/tags/{id}/stats', 'GroupStats'],
    ['/stats', 'GroupStats'],
  ] as const)('GET %s documents its query parameters and returns %s', (path, schemaName) => {
    const parameters = (operation('get', path).parameters ?? []).map(resolve);
    const query = parameters.filter((parameter: Json) => parameter.in === 'query').map((parameter: Json) => parameter.name);
    expect(query.sort()).toEqual(['end', 'interval', 'start', 'top', 'tz']);
    const interval = parameters.find((parameter: Json) => parameter.name === 'interval');
    expect(resolve(interval.schema).enum).toEqual(['hour', 'day']);
    const schema = responseSchema(operation('get', path).responses['200']);
    const expected = resolve({ $ref: `#/components/schemas/${schemaName}` });
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(Object.keys(expected.properties).sort());
    expect(Object.keys(expected.properties)).toEqual(expect.arrayContaining(['totals', 'series', 'breakdowns']));
    expect(Object.keys(expected.properties).includes('top_links')).toBe(schemaName === 'GroupStats');
  });
});

describe('errors', () => {
  test('the Error schema has code, message and field', () => {
    const error = resolve({ $ref: '#/components/schemas/Error' });
    expect(error).toBeDefined();
    expect(error.type).toBe('object');
    expect(error.properties).toHaveProperty('code');
    expect(error.properties).toHaveProperty('message');
    expect(error.properties).toHaveProperty('field');
    expect(error.required).toEqual(expect.arrayContaining(['code', 'message']));
    expect(error.required ?? []).not.toContain('field');
  });

  test.each(SPEC_OPERATIONS)('%s %s documents a 401 with the Error schema', (method, path) => {
    const response = operation(method, path)?.responses?.['401'];
    expect(response).toBeDefined();
    expect(refersTo(resolve(response).content?.['application/json']?.schema, 'Error')).toBe(true);
  });

  test('every documented 4xx answers with the Error schema', () => {
    for (const [method, path] of SPEC_OPERATIONS) {
      for (const [status, response] of Object.entries(operation(method, path)?.responses ?? {})) {
        if (!/^4\d\d$/.test(status)) continue;
        expect(refersTo(resolve(response).content?.['application/json']?.schema, 'Error'), `${method} ${path} ${status}`).toBe(true);
      }
    }
  });

  test('every operation documents 503 DATABASE_UNAVAILABLE, with the Error schema and Retry-After', () => {
    for (const [method, path] of SPEC_OPERATIONS) {
      const unavailable = resolve(operation(method, path)?.responses?.['503']);
      expect(unavailable?.content?.['application/json']?.examples?.DATABASE_UNAVAILABLE?.value.code, `${method} ${path}`).toBe(
        'DATABASE_UNAVAILABLE',
      );
      expect(refersTo(unavailable.content['application/json'].schema, 'Error')).toBe(true);
      expect(unavailable.headers?.['Retry-After']).toBeDefined();
    }
  });

  test.each([
    ['get', '/links/{id}', '404'],
    ['patch', '/links/{id}', '404'],
    ['delete', '/links/{id}', '404'],
    ['post', '/links', '409'],
    ['post', '/links', '422'],
    ['post', '/links', '403'],
    ['post', '/tags', '409'],
    ['delete', '/tags/{id}', '404'],
    ['get', '/links/{id}/stats', '404'],
    ['get', '/links/{id}/stats', '422'],
    ['get', '/tags/{id}/stats', '404'],
    ['get', '/stats', '422'],
  ] as const)('%s %s documents %s', (method, path, status) => {
    expect(operation(method, path)?.responses).toHaveProperty(status);
  });
});

describe('the streamed export', () => {
  test('GET /links/export answers a CSV or JSON Lines file, chosen by format, and documents its errors', () => {
    const exported = operation('get', '/links/export');
    expect(exported.operationId).toBe('links_export');
    expect(Object.keys(exported.responses['200'].content).sort()).toEqual(['application/jsonl', 'text/csv']);
    const format = exported.parameters.find((parameter: Json) => parameter.name === 'format');
    expect(format).toMatchObject({ in: 'query', schema: { enum: ['csv', 'jsonl'], default: 'csv' } });
    const formulas = exported.parameters.find((parameter: Json) => parameter.name === 'csv_formulas');
    expect(formulas).toMatchObject({ in: 'query', schema: { enum: ['guarded', 'raw'], default: 'guarded' } });
    expect(Object.keys(exported.responses).sort()).toEqual(['200', '401', '403', '422', '429', '503']);
    expect(Object.keys(exported.responses['422'].content['application/json'].examples)).toEqual(['VALIDATION_ERROR']);
    expect(exported.responses['200'].headers['RateLimit-Limit']).toBeDefined();
  });
});

describe('security', () => {
  test('a bearer security scheme exists', () => {
    const schemes: Record<string, Json> = document.components?.securitySchemes ?? {};
    const bearer = Object.values(schemes).map(resolve);
    expect(bearer.some((scheme) => scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer')).toBe(true);
  });

  test.each(SPEC_OPERATIONS)('%s %s requires the bearer scheme', (method, path) => {
    const schemes: Record<string, Json> = document.components?.securitySchemes ?? {};
    const bearerNames = Object.entries(schemes)
      .filter(([, scheme]) => resolve(scheme).type === 'http' && String(resolve(scheme).scheme).toLowerCase() === 'bearer')
      .map(([name]) => name);
    const requirements: Json[] = operation(method, path)?.security ?? document.security ?? [];
    expect(requirements.length).toBeGreaterThan(0);
    // Every alternative must include the bearer scheme; an empty requirement ({}) would make it optional.
    for (const requirement of requirements) {
      expect(Object.keys(requirement).some((name) => bearerNames.includes(name))).toBe(true);
    }
  });
});

describe('examples', () => {
  test('the Link schema or the link responses carry an example', () => {
    const link = resolve({ $ref: '#/components/schemas/Link' });
    const create201 = resolve(operation('post', '/links').responses['201']);
    const media = create201?.content?.['application/json'];
    const examples = [link?.example, ...(link?.examples ?? []), media?.example, ...Object.values(media?.examples ?? {}).map(resolve)];
    const present = examples.filter((example) => example !== undefined && example !== null);
    expect(present.length).toBeGreaterThan(0);
    const example = present[0].value ?? present[0];
    expect(String(example.id)).toMatch(/^lnk_/);
    expect(typeof example.created_at).toBe('number');
  });

  test('error responses carry examples whose code matches their status', () => {
    const statusOf: Record<string, string> = {
      INVALID_JSON: '400',
      UNAUTHORIZED: '401',
      LINK_LIMIT_REACHED: '403',
      PLAN_LIMIT_REACHED: '403',
      TAG_NOT_FOUND: '404',
      LINK_NOT_FOUND: '404',
      SLUG_TAKEN: '409',
      EXTERNAL_ID_TAKEN: '409',
      TAG_NAME_TAKEN: '409',
      SLUG_INVALID: '422',
      VALIDATION_ERROR: '422',
    };
    let seen = 0;
    for (const [method, path] of SPEC_OPERATIONS) {
      for (const [status, response] of Object.entries(operation(method, path)?.responses ?? {})) {
        const media = resolve(response).content?.['application/json'];
        const examples = [media?.example, ...Object.values(media?.examples ?? {}).map((entry) => (entry as { value?: unknown }).value)];
        for (const example of examples as ({ code: string } | undefined)[]) {
          if (!example || !(example.code in statusOf)) continue;
          seen++;
          expect(statusOf[example.code], `${method} ${path} ${status} example ${example.code}`).toBe(status);
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
  });
});

describe('GET /docs', () => {
  test('answers 200 with an HTML page (following redirects)', async () => {
    const response = await fetch(`${server.origin}/docs`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/<html/i);
    expect(html).toContain('openapi.json');
  });
});
