import { createClient, type ShortlinksClient } from '@shortlinks/client';
import { currentCsrfToken } from './people-api.ts';

/**
 * The API client of a person signed in with the session cookie: no key; the browser sends the
 * cookie to the page's own origin, and every call carries the session's CSRF token. A 401 (the
 * session ended: signed out elsewhere, removed from the workspace) tells `onEnded`.
 */
export function personClient(origin: string, onEnded: () => void): ShortlinksClient {
  return createClient({
    baseUrl: origin,
    csrfToken: currentCsrfToken,
    fetch: async (input, init) => {
      const response = await fetch(input, { ...init, credentials: 'same-origin' });
      if (response.status === 401) onEnded();
      return response;
    },
  });
}
