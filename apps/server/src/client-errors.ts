import type { Socket } from 'node:net';
import type { ErrorBody } from '@shortlinks/contract';

/** What Node could not even parse as a request, answered in the API's error shape. */
const ANSWERS: Record<string, [number, string, ErrorBody]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    { code: 'HEADERS_TOO_LARGE', message: 'The URL and headers together must be at most 16 KiB' },
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', { code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive' }],
};
const MALFORMED: [number, string, ErrorBody] = [
  400,
  'Bad Request',
  { code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP' },
];

/**
 * Fastify's clientErrorHandler: a request that fails before routing (a URL over the header limit,
 * broken HTTP) still gets `{ code, message }`, as every other error does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] = ANSWERS[error.code ?? ''] ?? MALFORMED;
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}
