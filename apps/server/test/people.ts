import { createHash, randomBytes } from 'node:crypto';
import type { Role } from '@shortlinks/api/services';
import type { TestServer } from './harness.ts';

/** A password no list holds, for the people tests. */
export const PASSWORD = 'correct horse battery staple 42';

/** A person with a password and a role in `accountId`, made through the services (as the CLI and setup do). */
export async function addPerson(server: TestServer, accountId: string, role: Role, email: string, password = PASSWORD) {
  const user = (await server.services.users.find(email)) ?? (await server.services.users.create(email, password));
  await server.services.members.add(accountId, user.id, role);
  return user;
}

/**
 * A key made by a person (`created_by_user_id`): it acts with that person's role of the moment.
 * Written straight into the table so a test controls it without the keys API's own rules.
 */
export async function keyMadeBy(server: TestServer, accountId: string, userId: string): Promise<string> {
  const secret = `slk_${randomBytes(32).toString('base64url')}`;
  await server.orm.em
    .fork()
    .getConnection()
    .execute('insert into api_key (id, account_id, prefix, secret_hash, created_by_user_id) values (?, ?, ?, ?, ?)', [
      `key_${randomBytes(8).toString('hex')}`,
      accountId,
      secret.slice(0, 12),
      createHash('sha256').update(secret).digest('hex'),
      userId,
    ]);
  return secret;
}

export interface TrpcAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
  data: any;
  /** The app's error code, when the call failed. */
  code: string | undefined;
  message: string | undefined;
  /** The input field a refusal names, when it names one. */
  field?: string | undefined;
}

/**
 * A browser as the server sees one: it keeps the session cookie it is given, sends its own origin
 * on writes, and the CSRF token the dashboard would (from sign-in or `auth.me`). Each header can be
 * left out or forged to play the attacker.
 */
export class Browser {
  readonly server: TestServer;
  cookie: string | undefined;
  csrfToken: string | undefined;
  /** Every Set-Cookie the server sent, newest last. */
  readonly setCookies: string[] = [];

  constructor(server: TestServer) {
    this.server = server;
  }

  async signIn(email: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<TrpcAnswer> {
    const answer = await this.call('auth.signIn', { email, password }, { headers });
    if (answer.status === 200) this.csrfToken = answer.data.csrf_token;
    return answer;
  }

  query(path: string, input: unknown = {}, headers: Record<string, string> = {}) {
    return this.call(path, input, { method: 'GET', headers });
  }

  /** A write (POST), with this browser's Origin and CSRF token unless `headers` replaces them (`''` leaves one out). */
  mutate(path: string, input: unknown = {}, headers: Record<string, string> = {}) {
    return this.call(path, input, { method: 'POST', headers });
  }

  async call(
    path: string,
    input: unknown,
    { method = 'POST', headers = {} }: { method?: 'GET' | 'POST'; headers?: Record<string, string> },
  ) {
    const sent: Record<string, string> = { 'user-agent': 'people-test-browser' };
    if (method === 'POST') {
      sent.origin = this.server.origin;
      sent['content-type'] = 'application/json';
      if (this.csrfToken) sent['x-csrf-token'] = this.csrfToken;
    }
    if (this.cookie) sent.cookie = this.cookie;
    for (const [name, value] of Object.entries(headers)) {
      if (value === '') delete sent[name];
      else sent[name] = value;
    }
    const url =
      method === 'GET'
        ? `${this.server.origin}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`
        : `${this.server.origin}/trpc/${path}`;
    const response = await fetch(url, { method, headers: sent, ...(method === 'POST' ? { body: JSON.stringify(input) } : {}) });
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name === 'shortlinks_session') this.cookie = value ? `shortlinks_session=${value}` : undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: tRPC's envelope
    const body: any = await response.json();
    return {
      status: response.status,
      headers: response.headers,
      data: body.result?.data,
      code: body.error?.data?.appCode,
      message: body.error?.message,
      field: body.error?.data?.field,
    } satisfies TrpcAnswer;
  }
}
