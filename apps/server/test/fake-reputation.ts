import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A request the fake received, as the real service would see it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** How the fake answers a URL. */
export type FakeBehaviour =
  | { kind: 'flag'; threatType: string; cacheDuration?: string; expireTime?: string }
  | { kind: 'error'; status: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'garbage' };

/**
 * A local stand-in for Google Safe Browsing (`POST /v4/threatMatches:find`) and Web Risk
 * (`GET /v1/uris:search`), speaking their documented JSON over real HTTP on loopback. URLs it has
 * no behaviour for are clean.
 */
export class FakeReputationService {
  readonly requests: ReceivedRequest[] = [];
  readonly behaviours = new Map<string, FakeBehaviour>();
  /** Applies to every URL, before `behaviours`. */
  everything: FakeBehaviour | undefined;
  readonly #server: Server;
  #origin = '';

  constructor() {
    this.#server = createServer((request, response) => {
      this.#handle(request)
        .then(({ status, body }) => {
          if (!response.destroyed) response.writeHead(status, { 'content-type': 'application/json' }).end(body);
        })
        .catch(() => response.destroy());
    });
  }

  get origin(): string {
    return this.#origin;
  }

  /** Requests for one URL, whichever API carried them. */
  asked(url: string): number {
    return this.requests.filter((request) => this.#urlOf(request) === url).length;
  }

  async start(): Promise<this> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    const address = this.#server.address();
    if (!address || typeof address === 'string') throw new Error('fake has no port');
    this.#origin = `http://127.0.0.1:${address.port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
  }

  #urlOf(request: ReceivedRequest): string | undefined {
    if (request.path === '/v1/uris:search') return request.query.get('uri') ?? undefined;
    const entries = (request.body as { threatInfo?: { threatEntries?: { url?: string }[] } } | undefined)?.threatInfo?.threatEntries;
    return entries?.[0]?.url;
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body: string }> {
    const url = new URL(request.url ?? '/', 'http://fake');
    let text = '';
    for await (const chunk of request) text += chunk;
    const received: ReceivedRequest = {
      method: request.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
    };
    this.requests.push(received);
    const asked = this.#urlOf(received);
    const safeBrowsing = received.method === 'POST' && received.path === '/v4/threatMatches:find';
    const webRisk = received.method === 'GET' && received.path === '/v1/uris:search';
    if ((!safeBrowsing && !webRisk) || asked === undefined || !url.searchParams.get('key')) {
      return { status: 400, body: JSON.stringify({ error: { code: 400, message: 'bad request', status: 'INVALID_ARGUMENT' } }) };
    }
    const behaviour = this.everything ?? this.behaviours.get(asked);
    if (behaviour?.kind === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, behaviour.ms));
      return { status: 200, body: '{}' };
    }
    if (behaviour?.kind === 'error') return { status: behaviour.status, body: JSON.stringify({ error: { code: behaviour.status } }) };
    if (behaviour?.kind === 'garbage') return { status: 200, body: '<html>' };
    if (behaviour?.kind !== 'flag') return { status: 200, body: '{}' };
    if (safeBrowsing) {
      const match = {
        threatType: behaviour.threatType,
        platformType: 'ANY_PLATFORM',
        threatEntryType: 'URL',
        threat: { url: asked },
        ...(behaviour.cacheDuration ? { cacheDuration: behaviour.cacheDuration } : {}),
      };
      return { status: 200, body: JSON.stringify({ matches: [match] }) };
    }
    const threat = { threatTypes: [behaviour.threatType], ...(behaviour.expireTime ? { expireTime: behaviour.expireTime } : {}) };
    return { status: 200, body: JSON.stringify({ threat }) };
  }
}
