import { callProcedure, everyProcedureMeta } from '@shortlinks/api';
import { AppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import { IMPORT_MEDIA_TYPES } from '@shortlinks/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { admitCalls } from '../call-admission.ts';
import type { FailureAnswer } from './rest-routes.ts';

export interface FileRoutesOptions {
  services: Services;
  /** Where REST is (`/api/v1`); not `prefix`, which Fastify would add to the routes itself. */
  restPrefix: string;
  answerFailure: FailureAnswer;
}

/**
 * The REST routes of procedures that take a file (`file` in their meta: POST /links/import), whose
 * body is the file itself rather than JSON. Registered in a scope of their own inside the REST
 * scope, so they keep its rate limit and 401 but parse bodies their own way: any of the import's
 * media types as bytes, at most the server's cap (IMPORT_MAX_BYTES; Fastify answers 413 from the
 * Content-Length before reading, or as soon as a chunked body passes it), then as UTF-8 text into
 * the procedure's `file`, with the query's fields beside it. The file is held once, as bytes and
 * then as text, never more than the cap of it; the readers then take it row by row.
 */
export async function restFileRoutes(scope: FastifyInstance, { services, restPrefix, answerFailure }: FileRoutesOptions) {
  const maxBytes = services.sentFileImport.maxBytes;
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser([...IMPORT_MEDIA_TYPES], { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) =>
    done(null, body),
  );
  scope.addContentTypeParser('*', (_request, _payload, done) =>
    done(new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as the body, with Content-Type ${IMPORT_MEDIA_TYPES.join(', ')}`)),
  );
  // The cap is a setting: say what it is, where the REST scope's answer would only say "too large".
  scope.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.statusCode !== 413) throw error;
    const tooLarge = new AppError('PAYLOAD_TOO_LARGE', `The file must be at most ${maxBytes} bytes (IMPORT_MAX_BYTES)`, 'file');
    return reply.code(413).type('application/json').send(tooLarge.toBody());
  });

  for (const [path, meta] of everyProcedureMeta()) {
    const field = meta.file;
    if (!field) continue;
    scope.route({
      method: meta.openapi.method,
      url: `${restPrefix}${meta.openapi.path}`,
      bodyLimit: maxBytes,
      handler: async (request, reply) => {
        let input: Record<string, unknown>;
        try {
          input = { ...queryOf(request.query), [field]: textOf(request.body) };
          await admitCalls(request, reply, [{ path, input }]);
        } catch (error) {
          return answerFailure(request, reply, error, undefined);
        }
        try {
          const result = await callProcedure(path, { services, transport: 'rest', caller: request.caller, ip: request.ip }, input);
          return reply.code(200).type('application/json').send(JSON.stringify(result));
        } catch (error) {
          return answerFailure(request, reply, error, input);
        }
      },
    });
  }
}

/**
 * The query's values as the input's fields, as a GET's are read (rest-input.ts): an empty value is
 * absent, and the object has no prototype, so `?__proto__=1` is a key the schema refuses by name.
 */
function queryOf(query: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(query as Record<string, string | string[] | undefined>)) {
    if (!value) continue;
    input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  return input;
}

/** The body as UTF-8 text: a file in another encoding is refused whole, as the CLI refuses it. */
function textOf(body: unknown): string {
  if (!Buffer.isBuffer(body)) return '';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new AppError(
      'MALFORMED_FILE',
      'The file is not UTF-8 text: save it as UTF-8 (a spreadsheet\'s "CSV UTF-8") and send it again',
      'file',
    );
  }
}
