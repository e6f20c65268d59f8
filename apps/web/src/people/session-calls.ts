/**
 * tRPC calls made with the dashboard's session cookie (docs/accounts.md): a query is a GET, a
 * write a POST carrying the session's CSRF token in `X-CSRF-Token` (docs/security.md). The
 * browser sends the cookie itself (same origin); no key or token goes into a URL.
 */

/** A refused call, with the server's code, message and field. */
export class CallFailed extends Error {
  readonly code: string;
  readonly field: string | null;
  readonly status: number;

  constructor(code: string, message: string, field: string | null, status: number) {
    super(message);
    this.name = 'CallFailed';
    this.code = code;
    this.field = field;
    this.status = status;
  }
}

interface Envelope<T> {
  result?: { data?: T };
  error?: { message?: string; data?: { appCode?: string; field?: string | null } };
}

async function answerOf<T>(response: Response): Promise<T> {
  let body: Envelope<T>;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch {
    throw new CallFailed('INTERNAL_ERROR', `The server answered ${response.status}; try again`, null, response.status);
  }
  if (!response.ok || body.error) {
    const code = body.error?.data?.appCode ?? 'INTERNAL_ERROR';
    throw new CallFailed(code, body.error?.message ?? 'Something went wrong', body.error?.data?.field ?? null, response.status);
  }
  return body.result?.data as T;
}

export async function sessionQuery<T>(path: string, input: unknown = {}): Promise<T> {
  const response = await fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  return answerOf<T>(response);
}

export async function sessionMutation<T>(path: string, input: unknown, csrfToken: string | undefined): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`/trpc/${path}`, { method: 'POST', credentials: 'same-origin', headers, body: JSON.stringify(input) });
  return answerOf<T>(response);
}

/** Who is signed in here, or null when nobody is (a 401). */
export async function signedIn(): Promise<{
  user: { id: string; email: string };
  workspace: { id: string; name: string; role: 'owner' | 'admin' | 'member' | 'viewer' };
  csrf_token: string;
} | null> {
  try {
    return await sessionQuery('auth.me');
  } catch (error) {
    if (error instanceof CallFailed && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}
