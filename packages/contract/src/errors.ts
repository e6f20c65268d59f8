import type { ErrorBody } from './error-body.ts';

/** An error answer as the OpenAPI document shows it, without its code. */
export interface ErrorExample {
  message: string;
  field?: string;
}

interface ErrorDefinition {
  /** The HTTP status of both transports (tRPC answers 200 for nothing but successes). */
  status: number;
  /** The message when there is nothing more specific to say. */
  message: string;
  /** A realistic answer for the OpenAPI document, when the usual message says more than `message`. */
  example?: ErrorExample;
  /**
   * This code is what an answer with this status and no code of ours means (a body refused by the
   * HTTP layer, a proxy's answer): the client reads it so.
   */
  byStatus?: true;
  /** Seconds a client should wait before retrying, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

/**
 * Every error of the API, its status and its message, for both transports and the client (spec:
 * "Errors", plus our own codes, docs/api-decisions.md). The one place a code, a status or a
 * standard message is written.
 */
export const ERRORS = {
  INVALID_JSON: { status: 400, message: 'The body is not valid JSON' },
  /** HTTP the server cannot parse at all (answered before any route). */
  MALFORMED_REQUEST: { status: 400, message: 'The request is not valid HTTP', byStatus: true },
  UNAUTHORIZED: { status: 401, message: 'Send a valid API key as "Authorization: Bearer <key>"', byStatus: true },
  /** Email and password do not match a person (the same answer for an unknown email: docs/security.md). */
  INVALID_CREDENTIALS: { status: 401, message: 'The email or the password is wrong' },
  /**
   * The caller may not do this: their role in the workspace is too low (docs/accounts.md, "Roles"),
   * the procedure needs a signed-in person, or a write with the session cookie came from another
   * site or without its CSRF token. Nothing was changed.
   */
  FORBIDDEN: {
    status: 403,
    message: 'Your role in this workspace does not allow this',
    example: { message: 'A viewer cannot do this; it needs the role member or above' },
  },
  LINK_LIMIT_REACHED: {
    status: 403,
    message: "The account is at its plan's link limit",
    example: { message: "The account is at its plan's limit of 1000 links" },
  },
  /** POST /domains past the cap on a workspace's domains (LIMITS.domainsPerWorkspace, docs/domains.md). */
  DOMAIN_LIMIT_REACHED: {
    status: 403,
    message: 'The workspace has as many domains as it may have; delete one first',
    example: { message: 'A workspace has at most 100 domains; delete one first', field: 'name' },
  },
  PLAN_LIMIT_REACHED: {
    status: 403,
    message: "The account is at its plan's tag limit",
    example: { message: "The account is at its plan's limit of 25 tags" },
  },
  TAG_NOT_FOUND: {
    status: 404,
    message: 'No tag of the account matches that id',
    example: { message: "Tag tag_4hG7Qx2LpZ is not one of the account's tags" },
  },
  DOMAIN_NOT_FOUND: { status: 404, message: 'No domain of the account matches that id' },
  LINK_NOT_FOUND: { status: 404, message: 'No live link of the account matches that id' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'No webhook of the account matches that id' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: 'No delivery of the webhook matches that id' },
  KEY_NOT_FOUND: { status: 404, message: 'No live API key you may manage matches that id' },
  /** A Connect request (docs/accounts.md, "Connect") already answered: each challenge is answered once. */
  CONNECT_ALREADY_ANSWERED: { status: 409, message: 'This connection request was already answered; start again from the extension' },
  NOT_FOUND: { status: 404, message: 'Nothing is served here', byStatus: true },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here', byStatus: true },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive', byStatus: true },
  SLUG_TAKEN: {
    status: 409,
    message: 'The slug is already in use',
    example: { message: 'The slug "launch" is already in use', field: 'slug' },
  },
  EXTERNAL_ID_TAKEN: {
    status: 409,
    message: 'Another live link of the account has that external_id',
    example: { message: 'Another live link of the account has that external_id', field: 'external_id' },
  },
  /** A domain name another workspace has verified: the first to verify it holds it (docs/domains.md). */
  DOMAIN_TAKEN: {
    status: 409,
    message: 'Another workspace has verified that domain',
    example: { message: 'Another workspace has verified go.acme.example', field: 'name' },
  },
  /** DELETE /domains/{id} while live links are on the domain: delete or move them first. */
  DOMAIN_HAS_LINKS: {
    status: 409,
    message: 'Live links use the domain; delete them first',
    example: { message: '3 live links use go.acme.example; delete them first' },
  },
  TAG_NAME_TAKEN: {
    status: 409,
    message: 'Another tag of the account has that name (ignoring case)',
    example: { message: 'Another tag of the account is named "News" (ignoring case)', field: 'name' },
  },
  /** Another person has that email (ignoring case). */
  EMAIL_TAKEN: {
    status: 409,
    message: 'Another person has that email',
    example: { message: 'Another person has that email', field: 'email' },
  },
  /** The change would leave a workspace without an owner. */
  LAST_OWNER: { status: 409, message: 'A workspace keeps at least one owner: make someone else owner first' },
  /** A one-time link (first owner, password) that was used, has expired, or never existed. */
  ONE_TIME_LINK_INVALID: { status: 410, message: 'This link was already used or has expired; ask for a new one' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large', byStatus: true },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the body as JSON with Content-Type: application/json', byStatus: true },
  SLUG_INVALID: {
    status: 422,
    message: 'The slug is not valid',
    example: { message: '"docs" is a reserved word and cannot be used as a slug', field: 'slug' },
  },
  /** An import file (POST /links/import) whose format cannot be told: name one with `format`. */
  UNKNOWN_FORMAT: {
    status: 422,
    message: 'The format of the file cannot be told; name it with format',
    example: {
      message: 'cannot tell the format of the file from its first line; the formats an import reads are shortlinks-csv, …',
      field: 'format',
    },
  },
  /** An import file that cannot be read as a whole: not UTF-8, broken quoting or JSON, a record past 256 KiB. */
  MALFORMED_FILE: {
    status: 422,
    message: 'The file cannot be read',
    example: { message: 'line 3 runs past 256 KiB, which no link does', field: 'file' },
  },
  VALIDATION_ERROR: {
    status: 422,
    message: 'The request is not valid',
    example: { message: 'title must not be empty', field: 'title' },
  },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests; retry later',
    example: { message: 'Too many requests for this API key; retry in 12 seconds' },
    byStatus: true,
  },
  /** The request line and headers are over Node's limit (16 KiB), e.g. a very long URL. */
  HEADERS_TOO_LARGE: { status: 431, message: 'The URL and headers together must be at most 16 KiB', byStatus: true },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side', byStatus: true },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is unavailable; retry later', byStatus: true },
  /** PostgreSQL cannot be reached or cannot serve now (an outage, a restart): not a bug, retry (docs/operations.md). */
  DATABASE_UNAVAILABLE: { status: 503, message: 'The database is unavailable; retry in a few seconds', retryAfterSeconds: 5 },
  /** The URL safety service could not be reached and the operator's policy is fail-closed. */
  REPUTATION_UNAVAILABLE: {
    status: 503,
    message: 'The URL safety check is unavailable; retry later',
    example: {
      message: 'The URL safety check is unavailable, so destination_url cannot be accepted now; retry later',
      field: 'destination_url',
    },
    retryAfterSeconds: 30,
  },
  /*
   * Invitations (docs/accounts.md, "Invitations"). A token is 256 random bits, so only its holder
   * can tell these apart; anyone else gets INVITATION_NOT_FOUND.
   */
  /** No invitation has this link's secret (mistyped, cut short, or made up). */
  INVITATION_NOT_FOUND: { status: 404, message: 'This invitation link is not valid; check that it was copied whole' },
  /** The person invited is a member of the workspace already. */
  ALREADY_MEMBER: {
    status: 409,
    message: 'That person is a member of this workspace already',
    example: { message: 'ada@example.com is a member of this workspace already', field: 'email' },
  },
  INVITATION_ACCEPTED: { status: 410, message: 'This invitation was already accepted; sign in instead' },
  INVITATION_EXPIRED: { status: 410, message: 'This invitation has expired; ask for a new one' },
  INVITATION_REVOKED: { status: 410, message: 'This invitation was revoked; ask for a new one' },
  /*
   * Two-factor sign-in (docs/accounts.md, "Two-factor sign-in").
   */
  /** The password passed; the code from the authenticator app (or a recovery code) is asked next. No session yet. */
  TWO_FACTOR_REQUIRED: { status: 401, message: 'Enter the code from your authenticator app, or a recovery code' },
  /** The second step of the sign-in ran out (5 minutes, or too many wrong codes) or was never started. */
  TWO_FACTOR_EXPIRED: { status: 401, message: 'The sign-in timed out; sign in again with your password' },
  /** The workspace's owner requires two-factor sign-in, and this person has not turned it on. */
  TWO_FACTOR_ENROLMENT_REQUIRED: {
    status: 403,
    message: 'This workspace requires two-factor sign-in: turn it on (Security) to continue',
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

/** The code an error answer without one of ours stands for, by its HTTP status. */
export function codeOfStatus(status: number): ErrorCode {
  const found = ERROR_CODES.find((code) => (ERRORS[code] as ErrorDefinition).byStatus && ERRORS[code].status === status);
  return found ?? 'INTERNAL_ERROR';
}

/**
 * What a tRPC error answer carries in `error.data` besides tRPC's own fields: the same code,
 * message, field and status as the REST body. Written by the server's error formatter, read by the
 * client.
 */
export interface ErrorData {
  appCode: ErrorCode;
  appMessage: string;
  /** null when no single field is at fault. */
  field: string | null;
  httpStatus: number;
}

/** An example answer of each code, for the OpenAPI document: `example` where an operation has its own, or the code's. */
export function errorExample(code: ErrorCode, example: ErrorExample | undefined = (ERRORS[code] as ErrorDefinition).example): ErrorBody {
  const definition: ErrorDefinition = ERRORS[code];
  return example?.field === undefined
    ? { code, message: example?.message ?? definition.message }
    : { code, message: example.message, field: example.field };
}
