import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';

/** A person the test provider knows. Signing in at its login page takes only the email. */
export interface ProviderAccount {
  email: string;
  /** The `email_verified` claim; `null` leaves the claim out. Default true. */
  emailVerified?: boolean | null;
  name?: string;
  /** The `sub` claim; default `sub-<email>`. */
  subject?: string;
}

export interface OpenIdProviderOptions {
  clientId?: string;
  clientSecret?: string;
  /** The relying party's callbacks, exactly (oidc-provider refuses any other). */
  redirectUris: string[];
  accounts: ProviderAccount[];
  /** A port to listen on (reserve one with `freePort()` when the app must know the issuer first); default any free one. */
  port?: number;
  /** Put `email` and `name` into the ID token too; by default they come from UserInfo only, as with many providers. */
  claimsInIdToken?: boolean;
}

export interface TestOpenIdProvider {
  /** `http://127.0.0.1:<port>`: the issuer to configure. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Follows an authorization URL as a browser would: the login page (signing in as `email`), then
   * back. Answers the URL the provider redirected to (our callback, with `code`, `state` and `iss`).
   */
  signIn(authorizationUrl: string, email: string): Promise<URL>;
  close(): Promise<void>;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The provider's records (sessions, codes, grants) in this provider's memory, gone with it. Ours
 * rather than oidc-provider's quick-start one, which warns on every start and is shared by the process.
 */
function memoryAdapterFactory(): (model: string) => Adapter {
  const records = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const record = records.get(key);
    if (record && record.expiresAt < Date.now()) records.delete(key);
    return records.get(key)?.payload;
  };
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        records.set(key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
      },
      async find(id) {
        return live(key(id));
      },
      async findByUid(uid) {
        return [...records.keys()].map((k) => live(k)).find((payload) => payload?.uid === uid);
      },
      async findByUserCode(userCode) {
        return [...records.keys()].map((k) => live(k)).find((payload) => payload?.userCode === userCode);
      },
      async consume(id) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        records.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [k, record] of records) if (record.payload.grantId === grantId) records.delete(k);
      },
    };
  };
}

/** The login page: one email field, so a browser test fills it and presses "Sign in". */
function loginPage(uid: string, problem?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test OpenID provider: sign in</title></head>
<body><h1>Test OpenID provider</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>Email <input type="email" name="email" autocomplete="username" required></label>
<button type="submit">Sign in</button>
</form></body></html>`;
}

/**
 * A real OpenID Connect provider (panva's oidc-provider, the certified one) on a free loopback port,
 * for one test file: one confidential client (client_secret_basic, authorization code + PKCE), the
 * given accounts, and a login page that asks only for an email. Consent is granted with the sign-in.
 */
export async function startOpenIdProvider(options: OpenIdProviderOptions): Promise<TestOpenIdProvider> {
  const clientId = options.clientId ?? 'shortlinks';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const accounts = new Map(options.accounts.map((account) => [account.subject ?? `sub-${account.email}`, account]));
  const subjectOf = (email: string) => [...accounts].find(([, account]) => account.email.toLowerCase() === email.toLowerCase())?.[0];

  let handle: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.writeHead(503).end();
  const server = createServer((request, response) => handle(request, response));
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...signingKey, use: 'sig', kid: 'test-key' } as never] },
    adapter: memoryAdapterFactory(),
    // Lifetimes of its own (oidc-provider notes each default it falls back to), in seconds.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: !options.claimsInIdToken,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, subject) {
      const account = accounts.get(subject);
      if (!account) return undefined;
      return {
        accountId: subject,
        async claims() {
          const verified = account.emailVerified === undefined ? true : account.emailVerified;
          return {
            sub: subject,
            email: account.email,
            ...(verified === null ? {} : { email_verified: verified }),
            ...(account.name ? { name: account.name } : {}),
          };
        },
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const providerCallback = provider.callback();

  // The interaction (login and consent at once), in front of the provider's own routes.
  handle = (request, response) => {
    const path = new URL(request.url ?? '/', issuer).pathname;
    const interaction = /^\/interaction\/([\w-]+)$/.exec(path);
    if (!interaction) return void providerCallback(request, response);
    void (async () => {
      try {
        const details = await provider.interactionDetails(request, response);
        if (request.method !== 'POST') {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid));
          return;
        }
        const email = (await formBody(request)).get('email') ?? '';
        const subject = subjectOf(email);
        if (!subject) {
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid, `No account for ${email}`));
          return;
        }
        const grant = new provider.Grant({ accountId: subject, clientId: String(details.params.client_id) });
        const missing = (details.prompt.details ?? {}) as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        grant.addOIDCScope([...(missing.missingOIDCScope ?? []), 'openid', 'email', 'profile']);
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        const grantId = await grant.save();
        await provider.interactionFinished(
          request,
          response,
          { login: { accountId: subject }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(`interaction failed: ${(error as Error).message}`);
      }
    })();
  };

  return {
    issuer,
    clientId,
    clientSecret,
    async signIn(authorizationUrl, email) {
      const cookies = new Map<string, string>();
      let url = new URL(authorizationUrl);
      let init: RequestInit = {};
      // A browser's walk: follow redirects by hand, keeping cookies, posting the login form once.
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: {
            ...(init.headers as Record<string, string>),
            cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
          },
          signal: AbortSignal.timeout(10_000),
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair = ''] = line.split(';');
          const separator = pair.indexOf('=');
          cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
        }
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url);
          init = {};
          await response.body?.cancel();
        } else if (response.status === 200 && /\/interaction\//.test(url.pathname) && init.method !== 'POST') {
          await response.body?.cancel();
          init = { method: 'POST', body: new URLSearchParams({ email }), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
        } else {
          throw new Error(
            `the test OpenID provider answered ${response.status} at ${url.pathname}: ${(await response.text()).slice(0, 300)}`,
          );
        }
      }
      throw new Error('the test OpenID provider redirected too many times');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
