import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** The request header a client or proxy names its request with; answered in the same header. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id a client may choose: 1 to 128 characters that need no quoting in a log line or a
 * header (letters, digits, `-_.:/+=@`). UUIDs, nginx's `$request_id`, base64 and ULIDs fit.
 */
const SAFE_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

/** The incoming `X-Request-Id` when it is safe to log and echo; undefined otherwise (or when absent). */
export function incomingRequestId(headers: IncomingHttpHeaders): string | undefined {
  const id = headers[REQUEST_ID_HEADER];
  // Two X-Request-Id headers arrive joined by ", ", which is not a safe id.
  return typeof id === 'string' && SAFE_ID.test(id) ? id : undefined;
}

/**
 * Fastify's `genReqId`: the client's id when it is safe, else a new UUID (unique across
 * instances, unlike Fastify's per-process counter). Fastify's own `requestIdHeader` would take
 * any value unchecked.
 */
export function requestIdOf(request: IncomingMessage): string {
  return incomingRequestId(request.headers) ?? randomUUID();
}
