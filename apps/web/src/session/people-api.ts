import type { Me, Member, RoleName, Session } from '@shortlinks/contract';

/**
 * The dashboard's own calls of the people procedures (sign-in, sessions, members, the workspace:
 * docs/accounts.md), which the SDK does not carry: tRPC single calls on the page's own origin,
 * with the session cookie the browser sends there and the session's CSRF token on every write.
 */
export class PeopleError extends Error {
  readonly code: string;
  readonly field: string | undefined;
  readonly status: number;

  constructor(status: number, code: string, message: string, field: string | undefined) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

let csrfToken = '';

/** The session's CSRF token, learnt from sign-in and `auth.me`, sent with every write. */
export const currentCsrfToken = () => csrfToken;

function remember<T extends { csrf_token: string }>(me: T): T {
  csrfToken = me.csrf_token;
  return me;
}

async function call<T>(method: 'GET' | 'POST', path: string, input: unknown = {}): Promise<T> {
  let response: Response;
  try {
    response =
      method === 'GET'
        ? await fetch(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { credentials: 'same-origin' })
        : await fetch(`/trpc/${path}`, {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
            body: JSON.stringify(input),
          });
  } catch {
    throw new PeopleError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection, then try again.', undefined);
  }
  const body = (await response.json().catch(() => ({}))) as {
    result?: { data: T };
    error?: { message?: string; data?: { appCode?: string; field?: string | null } };
  };
  if (response.ok && body.result) return body.result.data;
  const data = body.error?.data;
  throw new PeopleError(
    response.status,
    data?.appCode ?? 'INTERNAL_ERROR',
    body.error?.message ?? `HTTP ${response.status}`,
    data?.field ?? undefined,
  );
}

export const people = {
  me: async () => remember(await call<Me>('GET', 'auth.me')),
  signIn: async (email: string, password: string) => remember(await call<Me>('POST', 'auth.signIn', { email, password })),
  signOut: () => call<unknown>('POST', 'auth.signOut'),
  signOutEverywhere: () => call<unknown>('POST', 'auth.signOutEverywhere'),
  sessions: () => call<Session[]>('GET', 'auth.sessions'),
  endSession: (id: string) => call<unknown>('POST', 'auth.endSession', { id }),
  changePassword: (current_password: string, new_password: string) =>
    call<unknown>('POST', 'auth.changePassword', { current_password, new_password }),
  switchWorkspace: async (workspace_id: string) => remember(await call<Me>('POST', 'auth.switchWorkspace', { workspace_id })),
  passwordLink: (token: string) =>
    call<{ purpose: 'setup' | 'password'; email: string | null; workspace: string | null }>('GET', 'auth.passwordLink', { token }),
  usePasswordLink: async (token: string, password: string, email?: string) =>
    remember(await call<Me>('POST', 'auth.usePasswordLink', { token, password, ...(email === undefined ? {} : { email }) })),
  members: () => call<Member[]>('GET', 'members.list'),
  changeRole: (user_id: string, role: RoleName) => call<Member>('POST', 'members.changeRole', { user_id, role }),
  removeMember: (user_id: string) => call<unknown>('POST', 'members.remove', { user_id }),
  leave: () => call<unknown>('POST', 'members.leave'),
  /** Connect (docs/accounts.md): the person's answer to a client's request for a key. */
  connectApprove: (challenge: string, client: string) => call<unknown>('POST', 'connect.approve', { challenge, client }),
  connectDecline: (challenge: string, client: string) => call<unknown>('POST', 'connect.decline', { challenge, client }),
};
