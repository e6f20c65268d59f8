import { ERROR_CODES } from '@shortlinks/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Property-based fuzzing of every endpoint over real HTTP against real PostgreSQL: whatever is
 * sent, the server never answers 5xx, every error has the documented shape, and a refused request
 * leaves the database exactly as it was. Run counts are bounded so the file takes seconds.
 */

let server: TestServer;
let alice: TestAccount;
// biome-ignore lint/suspicious/noExplicitAny: response bodies
let link: any, tag: any;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
  tag = (await alice.call('POST', '/tags', { name: 'Fuzzed', color: 'lime' })).body;
  link = (
    await alice.call('POST', '/links', {
      title: 'Fuzz target',
      destination_url: 'https://example.com/fuzz',
      external_id: 'fuzz-1',
      tag_ids: [tag.id],
      expires_at: Date.now() + 86_400_000,
    })
  ).body;
  expect(link.id).toMatch(/^lnk_/);
});
afterAll(() => server.close());

/** Everything the API can write, as one digest per table. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = ['account', 'api_key', 'link', 'tag', 'link_tag', 'denylist_entry'];
  const select = tables.map((table) => `(select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) from ${table} t) as ${table}`);
  const rows = await server.orm.em
    .fork()
    .getConnection()
    .execute(`select ${select.join(', ')}`);
  return rows[0] as Record<string, string>;
}

interface Sent {
  method: string;
  path: string;
  body?: string | undefined;
  contentType?: string | undefined;
}

async function send({ method, path, body, contentType }: Sent) {
  const headers: Record<string, string> = { authorization: `Bearer ${alice.key}` };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const response = await fetch(`${server.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
}

// OPTIONS is answered by CORS (204, with CORS headers only for extension origins).
const STATUS_BY_METHOD: Record<string, number[]> = { GET: [200], POST: [200, 201], PATCH: [200], DELETE: [204], OPTIONS: [204] };

/** The REST contract for any answer: success with a JSON body (or 204), or the documented error shape. */
function expectRestContract(sent: Sent, answer: Awaited<ReturnType<typeof send>>) {
  const where = `${sent.method} ${sent.path} ${String(sent.body).slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status < 400) {
    expect(STATUS_BY_METHOD[sent.method], where).toContain(answer.status);
    return;
  }
  expect(answer.contentType, where).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(ERROR_CODES, where).toContain(body.code);
  expect(typeof body.message, where).toBe('string');
  expect(
    Object.keys(body).filter((key) => !['code', 'message', 'field'].includes(key)),
    where,
  ).toEqual([]);
  if (body.code === 'VALIDATION_ERROR' || body.code === 'SLUG_INVALID') expect(typeof body.field, where).toBe('string');
  else if (body.field !== undefined) expect(typeof body.field, where).toBe('string');
}

/**
 * A bulk call's contract: the per-item results (all done, some: 207, none: 422), each item done or
 * refused with the API's error shape; or, for a request refused as a whole, the REST contract.
 */
function expectBulkContract(sent: Sent, answer: Awaited<ReturnType<typeof send>>) {
  const body = answer.contentType.startsWith('application/json') ? (JSON.parse(answer.text) as Record<string, unknown>) : undefined;
  const results = body?.results as { ok: boolean; status: number; error?: { code: unknown; message: unknown } }[] | undefined;
  if (!body || !Array.isArray(results)) {
    expectRestContract(sent, answer);
    return;
  }
  const where = `${sent.method} ${sent.path} ${String(sent.body).slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  const done = results.filter((result) => result.ok).length;
  expect({ succeeded: body.succeeded, failed: body.failed }, where).toEqual({ succeeded: done, failed: results.length - done });
  const all = sent.method === 'POST' ? 201 : 200;
  expect(answer.status, where).toBe(done === results.length ? all : done > 0 ? 207 : 422);
  for (const result of results.filter((item) => !item.ok)) {
    expect(ERROR_CODES, where).toContain(result.error?.code);
    expect(typeof result.error?.message, where).toBe('string');
    expect(result.status, where).toBeGreaterThanOrEqual(400);
    expect(result.status, where).toBeLessThan(500);
  }
}

/** Sends, then checks the contract, and that a refusal changed nothing. */
async function probe(sent: Sent, contract = expectRestContract) {
  const before = await snapshot();
  const answer = await send(sent);
  contract(sent, answer);
  if (answer.status >= 400) expect(await snapshot(), `${sent.method} ${sent.path} changed the database`).toEqual(before);
  return answer;
}

// ---- generators -----------------------------------------------------------------------------

/** Percent-encodes any text; a lone surrogate (which encodeURIComponent refuses) goes as its WTF-8 bytes. */
const encode = (text: string) =>
  text
    .split(/([\uD800-\uDFFF])/)
    .map((part) =>
      /^[\uD800-\uDFFF]$/.test(part)
        ? [0xe0 | (part.charCodeAt(0) >> 12), 0x80 | ((part.charCodeAt(0) >> 6) & 0x3f), 0x80 | (part.charCodeAt(0) & 0x3f)]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('');

/** NUL (no PostgreSQL text holds it) and half a surrogate pair (no UTF-8 form), alone and inside ids. */
const UNSTORABLE = ['\u0000', 'a\u0000b', 'lnk_\u0000', 'ext_\u0000', 'tag_\u0000', '\ud800', 'lnk_\udfff', 'ext_a\ud800', 'tag_\udbff'];

/** Ordinary text with a character PostgreSQL cannot hold somewhere in it. */
const unstorableText = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), fc.string({ maxLength: 12 }))
  .map((parts) => parts.join(''));

/** Arrays nested around and just past the most a body may nest (32 levels). */
const nestedArrays = fc.integer({ min: 28, max: 40 }).map((levels) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown);

/** Text of every kind: unicode, control characters, lone surrogates, and now and then very long. */
const anyText = fc.oneof(
  { weight: 1, arbitrary: unstorableText },
  { weight: 1, arbitrary: fc.constantFrom(...UNSTORABLE) },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '\u2028', '\uD800', '../..', '%00', 'null', '[]', '{}', '🔗'.repeat(300)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }), fc.integer({ min: 200, max: 80_000 }))
      .map(([piece, times]) => piece.repeat(times)),
  },
);

const anyJson = fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 });

/** A value for a known field: the right type now and then, mostly anything. */
const fieldValue = fc.oneof(
  anyText,
  anyJson,
  fc.constantFrom(null, true, 0, -1, 1.5, 1e300, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.constantFrom(
    'https://example.com/x',
    'http://127.0.0.1/',
    'javascript:alert(1)',
    'https://sho.rt/a',
    `https://example.com/${'a'.repeat(2100)}`,
  ),
  fc.array(anyText, { maxLength: 12 }),
  nestedArrays,
);

const LINK_FIELDS = [
  'title',
  'destination_url',
  'slug',
  'utm',
  'tag_ids',
  'tag_names',
  'comments',
  'expires_at',
  'expiration_url',
  'external_id',
];

/** A body for a link write: known fields with odd values, unknown fields, or not an object at all. */
const linkBody = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...LINK_FIELDS), fieldValue, { maxKeys: 5 }) },
  {
    weight: 2,
    arbitrary: fc
      .record({ title: fieldValue, destination_url: fc.constantFrom('https://example.com/fuzzed', 'https://example.org/') })
      .chain((base) => fc.dictionary(fc.constantFrom(...LINK_FIELDS), fieldValue, { maxKeys: 3 }).map((extra) => ({ ...base, ...extra }))),
  },
  { weight: 1, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.dictionary(anyText, fieldValue, { maxKeys: 4 }) },
);

const tagBody = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'color'), fieldValue, { maxKeys: 2 }),
  anyJson,
  fc.dictionary(anyText, fieldValue),
);

/** A body as sent on the wire: JSON of a value, or raw text that is seldom JSON; with odd media types now and then. */
const wire = (body: fc.Arbitrary<unknown>) =>
  fc.record({
    body: fc.oneof({ weight: 5, arbitrary: body.map((value) => JSON.stringify(value)) }, { weight: 1, arbitrary: anyText }),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'APPLICATION/JSON',
        ),
      },
    ),
  });

/** Path ids: the real ones, ext_ ids of every kind (encoded), and anything else. */
const linkRef = fc.oneof(
  fc.constant(() => link.id as string),
  fc.constant(() => 'ext_fuzz-1'),
  anyText.map((text) => () => `ext_${encode(text)}`),
  anyText.map((text) => () => encode(text)),
  fc.constantFrom('lnk_', 'ext_', '..', '%2e%2e', 'lnk_%00', `lnk_${'x'.repeat(3000)}`).map((text) => () => text),
);
const tagRef = fc.oneof(
  fc.constant(() => tag.id as string),
  anyText.map((text) => () => encode(text)),
  fc.constantFrom('tag_', '%2F', 'tag_%00').map((text) => () => text),
);

/** Query strings: known and unknown parameters with any values, repeated or not. */
const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('page', 'per_page', 'tag_ids'), anyText),
      fc.oneof(anyText, fc.constantFrom('0', '-1', '1e3', '100', '101', ',')),
    ),
    {
      maxLength: 4,
    },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')}` : ''));

const STATS_PARAMETERS = ['start', 'end', 'interval', 'tz', 'top'];
const statsValue = fc.constantFrom('hour', 'day', 'UTC', 'Europe/Berlin', 'America/St_Johns', '+05:30', '0', '-1', '1e3', '100', '101');

/** Statistics query strings: known parameters with odd values (times of every kind among them) and unknown ones. */
const statsQueryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...STATS_PARAMETERS), anyText),
      fc.oneof(anyText, statsValue, fc.integer({ min: -1, max: 253_402_400_000_000 }).map(String)),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')}` : ''));

/** Run counts are kept small for the suite; `FUZZ_SCALE=10 pnpm test:unit apps/server/test/fuzz.test.ts` digs deeper. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const runs = (count: number) => ({ numRuns: Math.round(count * SCALE) });
// Generous: a property cut short by a timeout would keep writing while the next test runs.
vi.setConfig({ testTimeout: 90_000 * Math.max(1, SCALE) });
const RUNS = runs(40);

// ---- REST -------------------------------------------------------------------------------------

describe('REST endpoints under arbitrary input', () => {
  test('POST /links and POST /links/upsert', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/links', '/links/upsert'), wire(linkBody), async (path, { body, contentType }) => {
        await probe({ method: 'POST', path: `/api/v1${path}`, body, contentType });
      }),
      runs(80),
    );
  });

  test('PATCH /links/{id}', async () => {
    await fc.assert(
      fc.asyncProperty(linkRef, wire(linkBody), async (ref, { body, contentType }) => {
        await probe({ method: 'PATCH', path: `/api/v1/links/${ref()}`, body, contentType });
      }),
      runs(60),
    );
  });

  test('GET /links with any query, GET and DELETE /links/{id} with any id', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, linkRef, fc.constantFrom('list', 'get', 'delete'), async (query, ref, what) => {
        const id = ref();
        // Deleting the fuzz target itself would end the run's point; its deletion is tested elsewhere.
        if (what === 'delete' && (id === link.id || id === 'ext_fuzz-1')) return;
        const sent =
          what === 'list'
            ? { method: 'GET', path: `/api/v1/links${query}` }
            : { method: what === 'get' ? 'GET' : 'DELETE', path: `/api/v1/links/${id}${query}` };
        await probe(sent);
      }),
      RUNS,
    );
  });

  test('POST, PATCH and DELETE /links/bulk', async () => {
    const id = fc.oneof(
      fc.constant(null).map(() => link.id as string),
      fc.constantFrom('ext_fuzz-1', 'lnk_', 'ext_', 'lnk_\u0000'),
      anyText,
    );
    const ids = fc.oneof({ weight: 3, arbitrary: fc.array(id, { maxLength: 4 }) }, { weight: 1, arbitrary: anyJson });
    const bulkBody = fc.oneof(
      { weight: 3, arbitrary: fc.record({ links: fc.array(linkBody, { maxLength: 4 }) }) },
      { weight: 2, arbitrary: fc.record({ ids, changes: linkBody }) },
      { weight: 1, arbitrary: anyJson },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PATCH', 'DELETE'), wire(bulkBody), anyText, async (method, { body, contentType }, text) => {
        // Random ids only: deleting the fuzz targets would end the run's point.
        const sent: Sent =
          method === 'DELETE'
            ? { method, path: `/api/v1/links/bulk?ids=${encode(text)},lnk_${encode(text)}` }
            : { method, path: '/api/v1/links/bulk', body, contentType };
        await probe(sent, expectBulkContract);
      }),
      RUNS,
    );
  });

  test('POST /tags, PATCH and DELETE /tags/{id}, GET /tags', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('create', 'update', 'delete', 'list'),
        tagRef,
        wire(tagBody),
        async (what, ref, { body, contentType }) => {
          const id = ref();
          if (what === 'delete' && id === tag.id) return;
          const sent: Sent =
            what === 'create'
              ? { method: 'POST', path: '/api/v1/tags', body, contentType }
              : what === 'update'
                ? { method: 'PATCH', path: `/api/v1/tags/${id}`, body, contentType }
                : what === 'delete'
                  ? { method: 'DELETE', path: `/api/v1/tags/${id}` }
                  : { method: 'GET', path: '/api/v1/tags' };
          await probe(sent);
        },
      ),
      RUNS,
    );
  });

  test('GET /links/{id}/stats, /tags/{id}/stats and /stats with any id and query', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('link', 'tag', 'account'), linkRef, tagRef, statsQueryString, async (what, lref, tref, query) => {
        const path = what === 'link' ? `/links/${lref()}/stats` : what === 'tag' ? `/tags/${tref()}/stats` : '/stats';
        await probe({ method: 'GET', path: `/api/v1${path}${query}` });
      }),
      RUNS,
    );
  });

  test('odd paths and methods under /api/v1', async () => {
    const segment = fc.oneof(anyText.map(encode), fc.constantFrom('links', 'tags', 'upsert', '..', '.', '', '%2F', '%00', 'stats'));
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        queryString,
        async (segments, method, query) => {
          const body = method === 'GET' || method === 'DELETE' || method === 'OPTIONS' ? undefined : '{}';
          await probe({ method, path: `/api/v1/${segments.join('/')}${query}`, body, contentType: body ? 'application/json' : undefined });
        },
      ),
      RUNS,
    );
  });
});

// ---- tRPC and redirects ----------------------------------------------------------------------------

/** tRPC answers in its own envelope; errors carry the app's code where the client reads it. */
function expectTrpcContract(sent: Sent, answer: Awaited<ReturnType<typeof send>>) {
  const where = `${sent.method} ${sent.path.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status < 400) return;
  // Refused before any route (URL over the header limit, broken encoding): the API's plain shape.
  if (answer.status === 431 || (answer.status === 400 && answer.text.includes('"MALFORMED_REQUEST"'))) {
    expectRestContract(sent, answer);
    return;
  }
  const body = JSON.parse(answer.text) as {
    error?: { message?: unknown; data?: { appCode?: unknown; field?: unknown } };
    result?: { data?: { succeeded?: unknown } };
  };
  // A bulk call none of whose items was done answers 422 with its results (docs/api-decisions.md).
  if (answer.status === 422 && sent.path.startsWith('/trpc/links.bulk') && body.result) {
    expect(body.result.data?.succeeded, where).toBe(0);
    return;
  }
  expect(typeof body.error?.message, where).toBe('string');
  expect(ERROR_CODES, where).toContain(body.error?.data?.appCode);
}

/** A statistics input: the real id now and then (or none, for the account), any id otherwise, and odd query fields. */
function statsInput(realId: (() => string) | undefined) {
  const query = fc.dictionary(fc.oneof(fc.constantFrom(...STATS_PARAMETERS), anyText), fc.oneof(fieldValue, statsValue), { maxKeys: 4 });
  if (!realId) return query;
  const id = fc.oneof(
    fc.constant(null).map(() => realId()),
    fieldValue,
  );
  return fc.tuple(id, query).map(([value, rest]) => ({ id: value, ...rest }));
}

const PROCEDURES: [string, 'query' | 'mutation', fc.Arbitrary<unknown>][] = [
  ['links.create', 'mutation', linkBody],
  ['links.upsert', 'mutation', linkBody],
  ['links.update', 'mutation', linkBody.map((body) => (typeof body === 'object' && body ? { id: link?.id, ...body } : body))],
  ['links.list', 'query', fc.dictionary(fc.constantFrom('page', 'per_page', 'tag_ids'), fieldValue)],
  ['links.get', 'query', fc.record({ id: fieldValue })],
  // Random ids only: deleting the fuzz targets would end the run's point.
  ['links.delete', 'mutation', fc.record({ id: fieldValue })],
  ['links.bulkCreate', 'mutation', fc.oneof(fc.record({ links: fc.array(linkBody, { maxLength: 4 }) }), anyJson)],
  ['links.bulkUpdate', 'mutation', fc.oneof(fc.record({ ids: fc.array(fieldValue, { maxLength: 4 }), changes: linkBody }), anyJson)],
  ['links.bulkDelete', 'mutation', fc.record({ ids: fc.oneof(fieldValue, fc.array(fieldValue, { maxLength: 4 })) })],
  ['tags.create', 'mutation', tagBody],
  ['tags.update', 'mutation', tagBody],
  ['tags.list', 'query', fc.oneof(fc.constant({}), anyJson)],
  ['tags.delete', 'mutation', fc.record({ id: fieldValue })],
  ['stats.link', 'query', statsInput(() => link.id)],
  ['stats.tag', 'query', statsInput(() => tag.id)],
  ['stats.account', 'query', statsInput(undefined)],
  ['no.such.procedure', 'query', anyJson],
];

describe('tRPC procedures under arbitrary input', () => {
  test('every procedure, as query or mutation, with any input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PROCEDURES).chain(([name, kind, input]) => fc.tuple(fc.constant(name), fc.constant(kind), input)),
        fc.boolean(),
        async ([name, kind, value], asWrongKind) => {
          const asQuery = (kind === 'query') !== asWrongKind;
          const json = JSON.stringify(value) ?? '';
          const sent: Sent = asQuery
            ? { method: 'GET', path: `/trpc/${name}?input=${encode(json)}` }
            : { method: 'POST', path: `/trpc/${name}`, body: json, contentType: 'application/json' };
          await probe(sent, expectTrpcContract);
        },
      ),
      runs(60),
    );
  });
});

// ---- text PostgreSQL cannot hold, in every parameter -------------------------------------------

interface Parameter {
  name: string;
  in: 'path' | 'query';
}
interface Endpoint {
  method: string;
  /** `/links/{id}/stats` */
  path: string;
  procedure: string;
  parameters: Parameter[];
}

/** Every operation of the OpenAPI document, so a new endpoint is swept without being listed here. */
async function endpoints(): Promise<Endpoint[]> {
  const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      procedure: operation.operationId.replace(/[-_]/, '.'),
      parameters: operation.parameters ?? [],
    })),
  );
}

/** The code of an unknown id, by the resource its path names. */
const unknownIdCode = (path: string, parameter = 'id') => {
  if (parameter === 'delivery_id') return 'WEBHOOK_DELIVERY_NOT_FOUND';
  if (path.startsWith('/domains/')) return 'DOMAIN_NOT_FOUND';
  if (path.startsWith('/keys/')) return 'KEY_NOT_FOUND';
  return path.startsWith('/tags/') ? 'TAG_NOT_FOUND' : path.startsWith('/webhooks/') ? 'WEBHOOK_NOT_FOUND' : 'LINK_NOT_FOUND';
};
const realId = (path: string) => (path.startsWith('/tags/') ? (tag.id as string) : (link.id as string));

/** Runs `check` on every parameter of every endpoint with every unstorable text; what failed, one line each. */
async function everyCase(check: (endpoint: Endpoint, parameter: Parameter, text: string) => Promise<void>): Promise<string[]> {
  const problems: string[] = [];
  for (const endpoint of await endpoints()) {
    for (const parameter of endpoint.parameters) {
      for (const text of UNSTORABLE) {
        await check(endpoint, parameter, text).catch((error: Error) => problems.push(error.message.split('\n')[0] ?? ''));
      }
    }
  }
  return problems;
}

describe('every path and query parameter, with text PostgreSQL cannot hold', () => {
  test('the sweep covers every operation, statistics included', async () => {
    const swept = (await endpoints()).map((endpoint) => endpoint.procedure);
    expect(swept).toEqual(expect.arrayContaining(['links.get', 'links.update', 'links.delete', 'tags.update', 'tags.delete']));
    expect(swept).toEqual(expect.arrayContaining(['stats.link', 'stats.tag', 'stats.account', 'links.list']));
  });

  test('REST: an {id} answers like an unknown id (404), or 400 MALFORMED_REQUEST when its encoding is broken; a query value is refused (422 naming it) or matches nothing', async () => {
    const problems = await everyCase(async (endpoint, parameter, text) => {
      const path = endpoint.path.replace('{id}', parameter.name === 'id' ? encode(text) : realId(endpoint.path));
      // A real id must never be deleted by a query value that is ignored.
      if (endpoint.method === 'DELETE' && parameter.in !== 'path') return;
      const query = parameter.in === 'query' ? `?${parameter.name}=${encode(text)}` : '';
      const body = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? undefined : '{}';
      const sent: Sent = { method: endpoint.method, path: `/api/v1${path}${query}`, body, contentType: body && 'application/json' };
      const answer = await probe(sent);
      const error = answer.status >= 400 ? (JSON.parse(answer.text) as { code: string; field?: string }) : undefined;
      const where = `${sent.method} ${sent.path} → ${answer.status} ${answer.text.slice(0, 200)}`;
      if (error?.code === 'MALFORMED_REQUEST') return;
      // An id filter (tag_ids, the audit log's actor_id and resource_id) or a search finds nothing
      // with such text; NUL is refused as a control character by the others.
      const matchesNothing =
        parameter.name === 'tag_ids' || (['search', 'actor_id', 'resource_id'].includes(parameter.name) && !text.includes('\u0000'));
      if (parameter.in === 'path') {
        expect({ status: answer.status, code: error?.code }, where).toEqual({ status: 404, code: unknownIdCode(endpoint.path) });
      } else if (matchesNothing && endpoint.procedure === 'links.export') {
        // The export of what the list's filters match: a CSV of its header alone.
        expect({ status: answer.status, lines: answer.text.trimEnd().split('\n').length }, where).toEqual({ status: 200, lines: 1 });
      } else if (matchesNothing) {
        // A search's broken UTF-8 (a surrogate's bytes) arrives as U+FFFD (URL decoding), which no
        // link here holds; NUL is refused like any control character (the else branch), and half a
        // surrogate pair itself, which only JSON can carry, too (the tRPC sweep below).
        expect({ status: answer.status, total: JSON.parse(answer.text).total }, where).toEqual({ status: 200, total: 0 });
      } else {
        expect({ status: answer.status, code: error?.code, field: error?.field }, where).toEqual({
          status: 422,
          code: 'VALIDATION_ERROR',
          field: parameter.name,
        });
      }
    });
    expect(problems).toEqual([]);
  });

  test('tRPC: the same inputs give the same answers, with the app code in the envelope', async () => {
    const problems = await everyCase(async (endpoint, parameter, text) => {
      const mutation = endpoint.method !== 'GET';
      if (mutation && parameter.in !== 'path') return;
      const input: Record<string, unknown> = { [parameter.name]: parameter.name === 'tag_ids' ? [text] : text };
      // The path's other parameters get an id that is well formed (a delivery of a webhook: both ids).
      for (const [, name] of endpoint.path.matchAll(/\{(\w+)\}/g)) {
        if (name !== undefined && name !== parameter.name) input[name] = name === 'id' ? realId(endpoint.path) : 'whd_unknown';
      }
      const json = encode(JSON.stringify(input));
      const sent: Sent = mutation
        ? { method: 'POST', path: `/trpc/${endpoint.procedure}`, body: JSON.stringify(input), contentType: 'application/json' }
        : { method: 'GET', path: `/trpc/${endpoint.procedure}?input=${json}` };
      const answer = await probe(sent, expectTrpcContract);
      const envelope = JSON.parse(answer.text) as {
        error?: { data: { appCode: string; field: string | null } };
        result?: { data: { total?: number } };
      };
      const where = `${endpoint.procedure} ${JSON.stringify(input)} → ${answer.status} ${answer.text.slice(0, 200)}`;
      if (parameter.in === 'path') {
        expect({ status: answer.status, code: envelope.error?.data.appCode }, where).toEqual({
          status: 404,
          code: unknownIdCode(endpoint.path, parameter.name),
        });
      } else if (parameter.name === 'tag_ids' && endpoint.procedure === 'links.export') {
        // A streamed procedure answers only a streamed call (httpBatchStreamLink, as the SDK makes
        // it): an input that passes its checks is refused as a single call, whatever it holds. What
        // the filters match is swept over REST above.
        expect({ status: answer.status, code: envelope.error?.data.appCode }, where).toEqual({
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      } else if (parameter.name === 'tag_ids') {
        expect({ status: answer.status, total: envelope.result?.data.total }, where).toEqual({ status: 200, total: 0 });
      } else {
        expect({ status: answer.status, code: envelope.error?.data.appCode, field: envelope.error?.data.field }, where).toEqual({
          status: 422,
          code: 'VALIDATION_ERROR',
          field: parameter.name,
        });
      }
    });
    expect(problems).toEqual([]);
  });
});

describe('short links under arbitrary paths', () => {
  test('never 5xx: an unknown slug is 404, a known one redirects', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, queryString, fc.constantFrom('GET', 'HEAD'), async (text, query, method) => {
        const before = await snapshot();
        const response = await fetch(`${server.origin}/${encode(text)}${query}`, { method, redirect: 'manual' });
        await response.arrayBuffer();
        expect(response.status, `${method} /${text.slice(0, 100)}`).toBeLessThan(500);
        if (response.status >= 400) expect(await snapshot()).toEqual(before);
      }),
      RUNS,
    );
  });
});
