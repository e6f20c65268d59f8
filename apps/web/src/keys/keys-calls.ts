import { CallFailed, sessionMutation, sessionQuery } from '../people/session-calls.ts';
import { currentCsrfToken } from '../session/people-api.ts';
import type { Scope } from './scope-choices.ts';

/** A key as `keys.list` answers it (docs/accounts.md, "The keys page"); times in Unix epoch ms. */
export interface KeyView {
  id: string;
  name: string;
  scopes: Scope[];
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
}

/** What `keys.create` answers: the key itself (`slk_…`) is in this answer only. */
export interface NewKeyView extends KeyView {
  key: string;
}

export interface NewKeyInput {
  name: string;
  scopes: Scope[];
  expires_at: number | null;
}

export interface KeysCalls {
  list(): Promise<KeyView[]>;
  create(input: NewKeyInput): Promise<NewKeyView>;
  revoke(id: string): Promise<void>;
}

/**
 * The keys procedures over tRPC, for whoever the dashboard is signed in as: a person (the session
 * cookie and its CSRF token) or an API key (sent as a bearer key, as the rest of the dashboard does;
 * it needs `keys.write`, and never gives a scope it lacks).
 */
export function keysCalls(signedInWith: { key: string } | { person: true }): KeysCalls {
  const query = <T>(path: string, input: unknown = {}) =>
    'key' in signedInWith ? keyCall<T>(signedInWith.key, 'GET', path, input) : sessionQuery<T>(path, input);
  const mutate = <T>(path: string, input: unknown) =>
    'key' in signedInWith ? keyCall<T>(signedInWith.key, 'POST', path, input) : sessionMutation<T>(path, input, currentCsrfToken());
  return {
    list: async () => (await query<{ keys: KeyView[] }>('keys.list')).keys,
    create: (input) => mutate<NewKeyView>('keys.create', input),
    revoke: async (id) => {
      await mutate('keys.revoke', { id });
    },
  };
}

async function keyCall<T>(key: string, method: 'GET' | 'POST', path: string, input: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${key}` };
  const init: RequestInit = { method, headers, credentials: 'omit' };
  let url = `/trpc/${path}`;
  if (method === 'GET') url += `?input=${encodeURIComponent(JSON.stringify(input))}`;
  else {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(input);
  }
  const response = await fetch(url, init);
  let body: { result?: { data?: T }; error?: { message?: string; data?: { appCode?: string; field?: string | null } } };
  try {
    body = await response.json();
  } catch {
    throw new CallFailed('INTERNAL_ERROR', `The server answered ${response.status}; try again`, null, response.status);
  }
  if (!response.ok || body.error) {
    throw new CallFailed(
      body.error?.data?.appCode ?? 'INTERNAL_ERROR',
      body.error?.message ?? 'Something went wrong',
      body.error?.data?.field ?? null,
      response.status,
    );
  }
  return body.result?.data as T;
}
