import { codeOfStatus, type ErrorCode, type ErrorData } from '@shortlinks/contract';
import { TRPCClientError } from '@trpc/client';

/** The server could not be reached at all (wrong URL, server down, network or CORS failure). */
export type ClientErrorCode = ErrorCode | 'NETWORK_ERROR';

/** Every failure of a client call: the API's stable `code`, the offending `field`, and the HTTP `status` (0 when unreachable). */
export class ShortlinksError extends Error {
  readonly code: ClientErrorCode;
  readonly field: string | undefined;
  readonly status: number;

  constructor(code: ClientErrorCode, message: string, status: number, field?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ShortlinksError';
    this.code = code;
    this.status = status;
    this.field = field;
  }
}

/**
 * A fetch that refuses answers that are not JSON (an HTML error page, a proxy's answer, another
 * server at that address): tRPC would fail to parse them and report no status at all, so the
 * caller could not tell "wrong address" from "unreachable".
 */
export function refuseNonJsonAnswers(fetchImpl: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '')) {
      const code = codeOfStatus(response.status);
      throw new ShortlinksError(
        code,
        `The server answered ${response.status} without the API's JSON: is this a Shortlinks server?`,
        response.status,
      );
    }
    return response;
  };
}

/** The ShortlinksError behind anything a tRPC call threw. */
export function toShortlinksError(error: unknown): ShortlinksError {
  if (error instanceof ShortlinksError) return error;
  if (error instanceof TRPCClientError && error.cause instanceof ShortlinksError) return error.cause;
  if (error instanceof TRPCClientError) {
    // The server's error formatter puts the API's code, field and status here (ErrorData).
    const data = error.data as Partial<ErrorData> | undefined;
    if (data?.appCode) {
      return new ShortlinksError(data.appCode, error.message, data.httpStatus ?? 0, data.field ?? undefined, { cause: error });
    }
    const status = (error.meta?.response as { status?: number } | undefined)?.status;
    if (status === undefined) {
      return new ShortlinksError('NETWORK_ERROR', `The server could not be reached: ${error.message}`, 0, undefined, { cause: error });
    }
    // An answer without the app's error data: the server refused the request before the API ran
    // (a body over the size limit), or a proxy answered. The status still says what happened.
    const code = codeOfStatus(status);
    return new ShortlinksError(code, `The server answered ${status} (${code})`, status, undefined, { cause: error });
  }
  return new ShortlinksError('NETWORK_ERROR', error instanceof Error ? error.message : String(error), 0, undefined, { cause: error });
}
