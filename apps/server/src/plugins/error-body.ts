import { AppError, toAppError } from '@shortlinks/api/errors';
import type { FastifyError } from 'fastify';

/** The spec's error for a failure Fastify raised before a procedure ran (body parsing, size, media type). */
export function fromFastifyError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  switch (error.statusCode) {
    case 400:
      return error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
        ? new AppError('INVALID_JSON')
        : new AppError('VALIDATION_ERROR', error.message, 'body');
    case 413:
      return new AppError('PAYLOAD_TOO_LARGE');
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    default:
      return toAppError(error);
  }
}
