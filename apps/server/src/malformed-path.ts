import { AppError } from '@shortlinks/api';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { NOT_FOUND_PAGE } from './plugins/redirect-pages.ts';

const NO_SUCH_PATH = new AppError('NOT_FOUND', 'The path is not a valid URL (a malformed %-escape)');

/**
 * Fastify refuses a path with a malformed %-escape (`/api/v1/links/ext_%ZZ`, `/%`) before any
 * route or hook runs, with a body of its own. Such a path names nothing: the API answers its
 * 404 NOT_FOUND body, and a visitor of the short domain gets the usual 404 page.
 */
export function answerMalformedPath(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code !== 'FST_ERR_BAD_URL') return reply.send(error);
  if (request.url.startsWith('/api/') || request.url.startsWith('/trpc/')) {
    return reply.code(404).type('application/json').send(NO_SUCH_PATH.toBody());
  }
  return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
}
