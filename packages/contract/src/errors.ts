import { z } from 'zod';

/** HTTP status of every error code, for both transports (spec: "Errors", plus our own codes). */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  /** HTTP the server cannot parse at all (answered before any route). */
  MALFORMED_REQUEST: 400,
  UNAUTHORIZED: 401,
  LINK_LIMIT_REACHED: 403,
  PLAN_LIMIT_REACHED: 403,
  TAG_NOT_FOUND: 404,
  LINK_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SLUG_TAKEN: 409,
  EXTERNAL_ID_TAKEN: 409,
  TAG_NAME_TAKEN: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SLUG_INVALID: 422,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  /** The request line and headers are over Node's limit (16 KiB), e.g. a very long URL. */
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  /** The URL safety service could not be reached and the operator's policy is fail-closed. */
  REPUTATION_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The body of every error response. `field` names the offending request field. */
export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable error code.' }),
    message: z.string().meta({ description: 'What went wrong, for a person.' }),
    field: z.string().optional().meta({ description: 'The request field at fault; always present on VALIDATION_ERROR and SLUG_INVALID.' }),
  })
  .meta({ id: 'Error', example: { code: 'VALIDATION_ERROR', message: 'title is required', field: 'title' } });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
