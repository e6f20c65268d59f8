import type { ProcedureCall } from '@shortlinks/api';
import type { FastifyRequest } from 'fastify';

/**
 * The procedure calls a request to tRPC carries, read as tRPC's adapter will read them: the paths
 * after the prefix (`/trpc/links.list,tags.list`), split on commas in a batch (`?batch=1`); each
 * input is the batch's entry by index (`{"0": …, "1": …}`) or the whole input of a single call,
 * from `?input=` for a query and from the body otherwise. An input that is not JSON is none (the
 * call is weighed as if it had none, and tRPC refuses it). Bodies are parsed only for a path whose
 * weight depends on its input (`needsInput`).
 */
export function trpcRequestCalls(request: FastifyRequest, prefix: string, needsInput: (path: string) => boolean): ProcedureCall[] {
  const pathname = request.url.split('?', 1)[0] ?? '';
  if (!pathname.startsWith(`${prefix}/`)) return [];
  let path: string;
  try {
    path = decodeURIComponent(pathname.slice(prefix.length + 1));
  } catch {
    return [];
  }
  const query = request.query as Record<string, unknown>;
  const batch = query.batch === '1' || query.batch === 'true';
  const paths = batch ? path.split(',') : [path];
  let sent: { value: unknown } | undefined;
  const inputs = () => {
    sent ??= { value: parsedJson(request.method === 'GET' ? query.input : request.body) };
    return sent.value;
  };
  return paths.map((callPath, index) => {
    if (!needsInput(callPath)) return { path: callPath, input: undefined };
    const all = inputs();
    const input = batch ? (typeof all === 'object' && all !== null ? (all as Record<string, unknown>)[index] : undefined) : all;
    return { path: callPath, input };
  });
}

function parsedJson(text: unknown): unknown {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
