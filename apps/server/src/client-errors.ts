import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS, type ErrorCode } from '@shortlinks/contract';

/** What Node could not even parse as a request, by Node's error code; anything else is MALFORMED_REQUEST. */
const CODE_OF: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Fastify's clientErrorHandler: a request that fails before routing (a URL over the header limit,
 * broken HTTP) still gets `{ code, message }`, as every other error does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = CODE_OF[error.code ?? ''] ?? 'MALFORMED_REQUEST';
  const { status, message } = ERRORS[code];
  const json = JSON.stringify({ code, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}
