import http from 'node:http';
import https from 'node:https';
import { DELIVERY_RULES } from './webhook-settings.ts';
import { literalAddressProblem, publicOnlyLookup } from './webhook-target.ts';

/** What one POST to a receiver came to. */
export interface PostOutcome {
  /** The answer's status; undefined when none came (network error, timeout, refused address). */
  statusCode: number | undefined;
  /** Why it failed, when it did (a status outside 2xx included). */
  error: string | undefined;
  /** The first 4 KiB of the answer's body, as text. */
  responseBody: string | undefined;
  durationMs: number;
}

const lookup = publicOnlyLookup();

/**
 * POSTs `body` to `url`: success is a 2xx answer within the timeout. Redirects are not followed
 * (a 3xx fails), and unless private targets are allowed, the address connected to must be public
 * (checked at connect time by the lookup, and here for an address written in the URL).
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  { allowPrivate, timeoutMs = DELIVERY_RULES.timeoutMs }: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const done = (statusCode: number | undefined, error: string | undefined, responseBody?: string): PostOutcome => ({
    statusCode,
    error,
    responseBody,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(done(undefined, 'the URL is not valid'));
  }
  const literal = allowPrivate ? undefined : literalAddressProblem(target.hostname);
  if (literal) return Promise.resolve(done(undefined, literal));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Shortlinks-Webhooks/1',
        },
        agent: false,
        ...(allowPrivate ? {} : { lookup }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const answer = () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).subarray(0, DELIVERY_RULES.responseBytes).toString('utf8');
          finish(done(status, status >= 200 && status < 300 ? undefined : `the receiver answered ${status}`, text));
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (kept < DELIVERY_RULES.responseBytes) chunks.push(chunk);
          kept += chunk.length;
          // Enough of it is read: the rest is not waited for.
          if (kept >= DELIVERY_RULES.responseBytes) answer();
        });
        response.on('end', answer);
        response.on('error', answer);
      },
    );
    const timer = setTimeout(() => {
      finish(done(undefined, `no answer within ${timeoutMs / 1000} s`));
      request.destroy();
    }, timeoutMs);
    request.on('error', (error) => finish(done(undefined, error.message)));
    request.end(body);
  });
}
