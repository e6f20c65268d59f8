import { ERRORS, type ErrorBody, type ErrorCode, type ErrorData } from '@shortlinks/contract';
import { isDatabaseUnavailable } from '@shortlinks/db';
import { TRPCError } from '@trpc/server';
import { type TRPC_ERROR_CODE_KEY, TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';

/**
 * A failure the caller can act on, with the spec's stable code and, when a field is at fault, its
 * name. Without a message of its own, it says its code's standard one (`ERRORS` in the contract).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  /** Seconds until a retry may succeed, when this failure knows better than its code's default (a sign-in limit). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string = ERRORS[code].message, field?: string, retryAfterSeconds?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  /** Headers its answer carries on both transports: `Retry-After` for a failure that passes (ERRORS' `retryAfterSeconds`). */
  get headers(): Record<string, string> {
    const seconds = this.retryAfterSeconds ?? (ERRORS[this.code] as { retryAfterSeconds?: number }).retryAfterSeconds;
    return seconds === undefined ? {} : { 'retry-after': String(seconds) };
  }

  toBody(): ErrorBody {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }

  /** What a tRPC answer carries of it in `error.data`, which the client reads. */
  toData(): ErrorData {
    return { appCode: this.code, appMessage: this.message, field: this.field ?? null, httpStatus: this.status };
  }
}

export const validationError = (field: string, message: string) => new AppError('VALIDATION_ERROR', message, field);

/** tRPC's own code for each HTTP status, so tRPC answers with the same status as REST. */
const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Wraps an AppError for tRPC, whose HTTP status follows the TRPCError code. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR', message: error.message, cause: error });
}

/**
 * The tRPC response body of an error raised before any procedure ran (rate limit, body size): the
 * envelope the tRPC client reads, with the same `data` as the error formatter gives.
 */
export function trpcErrorBody(error: AppError) {
  const name = TRPC_CODE_BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR';
  return {
    error: {
      message: error.message,
      code: TRPC_ERROR_CODES_BY_KEY[name],
      data: { code: name, ...error.toData() },
    },
  };
}

/**
 * Messages for request fields that exist elsewhere but may not be sent here. A Map, not an object:
 * a field is named by the caller, and an object would answer `constructor` with what it inherits.
 */
const UNCHANGEABLE_FIELDS = new Map([
  ['slug', 'slug cannot be changed after creation'],
  ['external_id', 'external_id cannot be changed here; POST /links/upsert can set it'],
]);

/**
 * Fields whose problems are named down to the part at fault (`rules[2].if.country`,
 * `preview.image_url`): a rule among twenty is otherwise hard to find. Every other field is named
 * by its top-level name, as before.
 */
const NAMED_IN_FULL = new Set(['rules', 'preview']);

/** `rules[2].if.country`: a path as the request wrote it. */
function fullName(path: readonly PropertyKey[]): string {
  return path.map((key, at) => (typeof key === 'number' ? `[${key}]` : `${at > 0 ? '.' : ''}${String(key)}`)).join('');
}

/**
 * Turns an input validation failure into the spec's error: the first problem, with its top-level
 * field. `input` (the request as sent, when known) tells a field that was not sent from one sent
 * with the wrong type, which Zod reports alike.
 */
export function fromZodError(error: ZodError, input?: unknown): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('VALIDATION_ERROR', undefined, 'body');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? 'body';
    if (NAMED_IN_FULL.has(String(issue.path[0]))) return validationError(fullName([...issue.path, key]), `Unknown field "${key}"`);
    const field = issue.path.length > 0 ? String(issue.path[0]) : key;
    return validationError(field, UNCHANGEABLE_FIELDS.get(key) ?? `Unknown field "${[...issue.path, key].join('.')}"`);
  }
  const top = issue.path.length > 0 ? String(issue.path[0]) : 'body';
  const field = NAMED_IN_FULL.has(top) ? fullName(issue.path) : top;
  if (field === 'body') return validationError('body', 'The body must be a JSON object');
  const sent = typeof input === 'object' && input !== null && Object.hasOwn(input, top);
  let message = issue.message;
  if (issue.code === 'invalid_type' && issue.path.length === 1 && (input === undefined ? /received undefined$/.test(message) : !sent)) {
    message = `${field} is required`;
  } else if (issue.code === 'invalid_type' && message.startsWith('Invalid input')) {
    // Zod's own wording ("Invalid input: expected object, received null"), in the API's.
    message = `${NAMED_IN_FULL.has(top) ? field : issue.path.join('.')} must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  }
  return new AppError(field === 'slug' ? 'SLUG_INVALID' : 'VALIDATION_ERROR', message, field);
}

/**
 * The AppError behind any error a procedure or a transport raised; a database that cannot be
 * reached is DATABASE_UNAVAILABLE, and other unknown failures become INTERNAL_ERROR. `input` is the request's input, when known (see {@link fromZodError}).
 */
export function toAppError(error: unknown, input?: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return fromZodError(error, input);
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return error.cause;
    if (error.cause instanceof ZodError) return fromZodError(error.cause, input);
    // tRPC parses the body itself and reports malformed JSON as a BAD_REQUEST caused by JSON.parse.
    if (error.cause instanceof SyntaxError) return new AppError('INVALID_JSON');
    switch (error.code) {
      case 'PARSE_ERROR':
        return new AppError('INVALID_JSON');
      case 'UNAUTHORIZED':
        return new AppError('UNAUTHORIZED', error.message);
      case 'NOT_FOUND':
        return new AppError('NOT_FOUND', error.message || undefined);
      case 'METHOD_NOT_SUPPORTED':
        return new AppError('METHOD_NOT_ALLOWED', error.message || undefined);
      case 'PAYLOAD_TOO_LARGE':
        return new AppError('PAYLOAD_TOO_LARGE');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new AppError('UNSUPPORTED_MEDIA_TYPE');
      case 'BAD_REQUEST':
        return new AppError('VALIDATION_ERROR', error.message, 'body');
      default:
        break;
    }
  }
  if (isDatabaseUnavailable(error)) return new AppError('DATABASE_UNAVAILABLE');
  return new AppError('INTERNAL_ERROR');
}
