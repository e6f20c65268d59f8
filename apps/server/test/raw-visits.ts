import { request as httpRequest } from 'node:http';
import { BROWSER_USER_AGENT } from './harness.ts';

/** An answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A visit as it comes off the wire: fetch would hide content-length and connection headers, and
 * the two redirect paths (the fast path and Fastify's route) must be told apart by nothing.
 * A browser's User-Agent unless `headers` names another.
 */
export function rawVisit(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method: init.method ?? 'GET',
        // Node's client sends a GET's body with neither Content-Length nor chunking: the server would
        // rightly read those bytes as a second request, which is not valid HTTP (400), racing the first answer.
        headers: {
          'user-agent': BROWSER_USER_AGENT,
          ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }),
          ...init.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('the visit took too long')));
    req.end(init.body);
  });
}

/** What a visitor sees of an answer, without what differs by nature (the date). */
export function seen({ status, headers, body }: RawAnswer) {
  const { date: _date, ...rest } = headers;
  return { status, headers: rest, body };
}
