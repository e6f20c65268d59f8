import { type Meta, procedureInputSchema } from '@shortlinks/api';
import { TRPCError } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import {
  coerceSchema,
  instanceofZodTypeKind,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  unwrapZodType,
} from 'trpc-to-openapi';

/** A REST request's input to its procedure: its query or JSON body, with its path parameters. */
export type RestInput = Record<string, unknown> | undefined;

type Schema = Parameters<typeof instanceofZodTypeKind>[0];

/**
 * How the REST route of the procedure at `path` reads its input, the way trpc-to-openapi's own
 * adapter does (with its helpers, worked out once per procedure rather than on every request):
 *   - GET and DELETE read the query string: empty values are absent, a key sent once is a value,
 *     a key sent again (or any key whose schema is an array) is an array;
 *   - POST, PATCH and PUT read the JSON body, and need a JSON content type;
 *   - the path's parameters (`{id}`, decoded; an empty one is an unknown path) are added to either;
 *   - an input of `z.void()` is no input at all;
 *   - numbers, booleans and dates in the top object coerce from text (the schema is set up once
 *     to coerce, as trpc-to-openapi does on a first request).
 */
export function restInputOf(path: string, meta: Meta): (request: FastifyRequest) => RestInput {
  const schema = unwrapZodType(procedureInputSchema(path), true);
  // A POST whose input is its path alone (POST /domains/{id}/verify) takes no body, as DELETE.
  const pathOnly =
    instanceofZodTypeObject(schema) && Object.keys(schema.shape as object).every((key) => meta.openapi.path.includes(`{${key}}`));
  const takesBody = meta.openapi.method !== 'GET' && meta.openapi.method !== 'DELETE' && !pathOnly;
  const named = namedPathParams(meta);
  if (instanceofZodTypeLikeVoid(schema)) {
    return (request) => {
      named(request);
      return undefined;
    };
  }
  // A streamed file's query is taken as sent, so `?format=` is a bad format, not the default one.
  if (meta.streamed) return (request) => ({ ...(request.query as object), ...named(request) });
  const arrayKeys: string[] = [];
  if (instanceofZodTypeObject(schema)) {
    coerceSchema(schema);
    for (const [key, shape] of Object.entries(schema.shape as Record<string, Schema>)) {
      const inner = instanceofZodTypeOptional(shape) ? (shape as { unwrap(): Schema }).unwrap() : shape;
      if (instanceofZodTypeKind(inner, 'array')) arrayKeys.push(key);
    }
  }

  if (takesBody) {
    // An action on what the path names (POST /webhooks/{id}/test) takes nothing else: it may come without a body.
    const pathKeys = new Set([...meta.openapi.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]));
    const bodyless = instanceofZodTypeObject(schema) && Object.keys(schema.shape as object).every((key) => pathKeys.has(key));
    return (request) => {
      if (!request.headers['content-type']?.startsWith('application/json')) {
        if (bodyless && request.body === undefined && !request.headers['content-type']) return named(request);
        throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'A JSON body is required' });
      }
      return { ...(request.body as object | undefined), ...named(request) };
    };
  }
  return (request) => {
    // Without a prototype, `input.__proto__ = …` makes a key like any other, which the schema
    // refuses by name; on `{}` it would set the prototype, and `?__proto__=1` would pass unseen.
    const input: Record<string, unknown> = Object.create(null);
    for (const [key, value] of Object.entries(request.query as Record<string, string | string[] | undefined>)) {
      if (!value) continue;
      input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
    }
    for (const key of arrayKeys) if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
    return Object.assign(input, named(request));
  };
}

/**
 * The path's parameters, each naming something: `/links/` (an empty `{id}`) is no path of the API
 * (404), not a link id too short.
 */
function namedPathParams(meta: Meta): (request: FastifyRequest) => Record<string, string> {
  if (!meta.openapi.path.includes('{')) return () => ({});
  return (request) => {
    const params = request.params as Record<string, string>;
    for (const value of Object.values(params)) if (value === '') throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
    return params;
  };
}
