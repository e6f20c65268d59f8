import { createClient, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';
import type { Settings } from './settings.ts';

export type ConnectionReport =
  | { ok: true; links: number; linkLimit: number | null; tags: number; tagLimit: number | null }
  | { ok: false; problem: 'unreachable' | 'unauthorized' | 'server'; message: string };

export function clientFor(settings: Settings, fetchImpl?: typeof fetch): ShortlinksClient {
  return createClient({ baseUrl: settings.serverUrl, apiKey: settings.apiKey, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
}

/**
 * The connection test the options run before saving: one authenticated read of links and one of
 * tags, reported as the plan's usage on success or the exact reason it failed.
 */
export async function testConnection(settings: Settings, fetchImpl?: typeof fetch): Promise<ConnectionReport> {
  const client = clientFor(settings, fetchImpl);
  try {
    const [links, tags] = await Promise.all([client.links.list({ per_page: 1 }), client.tags.list()]);
    return { ok: true, links: links.total, linkLimit: links.link_limit, tags: tags.tags.length, tagLimit: tags.tag_limit };
  } catch (error) {
    const failure = describeConnectionFailure(error, settings.serverUrl);
    if (failure.problem !== 'unreachable' || !(await somethingAnswers(settings.serverUrl, fetchImpl))) return failure;
    // A browser reports any other web server (one that sends no CORS headers for the extension) as
    // a network failure, like a server that is down; but this one did answer.
    return {
      ok: false,
      problem: 'server',
      message: `A server answered at ${settings.serverUrl}, but not as a Shortlinks server. Check the address.`,
    };
  }
}

/** Whether anything answers HTTP at the address: a request whose answer is not read (`no-cors`), so CORS cannot fail it. */
async function somethingAnswers(serverUrl: string, fetchImpl: typeof fetch = (input, init) => fetch(input, init)): Promise<boolean> {
  try {
    await fetchImpl(`${serverUrl}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' });
    return true;
  } catch {
    return false;
  }
}

export function describeConnectionFailure(error: unknown, serverUrl: string): ConnectionReport & { ok: false } {
  if (error instanceof ShortlinksError) {
    if (error.code === 'NETWORK_ERROR') {
      return {
        ok: false,
        problem: 'unreachable',
        message: `Could not reach ${serverUrl}. Check the address and that the server is running.`,
      };
    }
    if (error.status === 401) {
      return {
        ok: false,
        problem: 'unauthorized',
        message: 'The server refused the API key (401 Unauthorized). Check the key, or ask for a new one.',
      };
    }
    // Not the API's answer: a 404 for the /trpc path, or a non-JSON page (the client says so).
    if (error.code === 'NOT_FOUND' || (error.code === 'INTERNAL_ERROR' && error.status !== 500)) {
      return {
        ok: false,
        problem: 'server',
        message: `No Shortlinks server answered at ${serverUrl} (HTTP ${error.status}). Check the address.`,
      };
    }
    return { ok: false, problem: 'server', message: `The server answered ${error.status} ${error.code}: ${error.message}` };
  }
  return { ok: false, problem: 'server', message: String(error) };
}
