import { createClient, type ShortlinksClient, ShortlinksError } from '@shortlinks/client';

export type SignInOutcome = { ok: true; client: ShortlinksClient } | { ok: false; field: 'key' | 'form'; message: string };

/**
 * A client for the server that serves the dashboard (the page's own origin) with this key. When
 * the server refuses the key later (revoked while the dashboard is open), `onRefused` is told, once
 * per answer, so the dashboard can ask for a key again.
 */
export function clientFor(
  origin: string,
  key: string,
  onRefused: () => void,
  fetchImpl: typeof fetch = globalThis.fetch,
): ShortlinksClient {
  return createClient({
    baseUrl: origin,
    apiKey: key,
    fetch: async (input, init) => {
      const response = await fetchImpl(input, init);
      if (response.status === 401) onRefused();
      return response;
    },
  });
}

/** What a typed key looks like wrong before asking the server, or undefined. */
export function keyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'Enter your API key. It starts with slk_.';
  if (/\s/.test(key.trim())) return 'An API key has no spaces. Paste it again.';
  return undefined;
}

/** Signs in with a real call (the first page of links): only a key the server accepts is kept. */
export async function signIn(origin: string, typed: string, onRefused: () => void, fetchImpl?: typeof fetch): Promise<SignInOutcome> {
  const key = typed.trim();
  const problem = keyProblem(key);
  if (problem) return { ok: false, field: 'key', message: problem };
  // The check's own 401 is the answer here, not a session that ended.
  let checking = true;
  const client = clientFor(origin, key, () => (checking ? undefined : onRefused()), fetchImpl);
  try {
    await client.links.list({ per_page: 1 });
    checking = false;
    return { ok: true, client };
  } catch (error) {
    return { ok: false, ...describeSignInFailure(error) };
  }
}

/** Why a sign-in failed, in a sentence that says what to do. */
export function describeSignInFailure(error: unknown): { field: 'key' | 'form'; message: string } {
  if (error instanceof ShortlinksError) {
    if (error.status === 401) {
      return { field: 'key', message: 'The server did not accept this key. Check that you copied all of it, or ask for a new one.' };
    }
    if (error.code === 'NETWORK_ERROR') {
      return {
        field: 'form',
        message: 'The server could not be reached. Check your connection and that the server is running, then try again.',
      };
    }
    if (error.code === 'RATE_LIMITED') {
      return { field: 'form', message: 'Too many attempts just now. Wait a minute and try again.' };
    }
    return { field: 'form', message: `The server could not check the key (HTTP ${error.status}, ${error.code}). Try again in a moment.` };
  }
  return { field: 'form', message: 'Something went wrong while signing in. Try again.' };
}
