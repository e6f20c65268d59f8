import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** A message the receiver took, its signature verified by the official `standardwebhooks` package. */
export interface Received {
  id: string;
  type: string;
  timestamp: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the data field by field
  data: any;
  /** The raw `webhook-signature` header. */
  signature: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * A real webhook receiver on 127.0.0.1: every request's signature is verified with
 * `standardwebhooks` against the secrets it is told (any one may match, as the specification
 * says); a request that fails verification is answered 400 and recorded in `refused`. It answers
 * `status` (200 by default), and can go down and come back on the same port.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly refused: string[] = [];
  secrets: string[] = [];
  status = 200;
  /** Milliseconds to wait before answering. */
  delayMs = 0;
  port = 0;
  #server: Server | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = this.port): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
        const verified = this.secrets.some((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        const answer = () => {
          // A sender gone while this one waited (killed) never hears the answer: nothing arrived.
          if (response.destroyed || request.socket.destroyed) return;
          if (!verified) {
            this.refused.push(body);
            response.writeHead(400).end('bad signature');
            return;
          }
          const message = JSON.parse(body);
          this.received.push({ id: headers['webhook-id'] ?? '', ...message, signature: headers['webhook-signature'] ?? '', body, headers });
          response.writeHead(this.status, { 'content-type': 'text/plain' }).end(`answered ${this.status}`);
        };
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    this.port = address.port;
    this.#server = server;
    return this;
  }

  /** Goes down: the port refuses connections until {@link start} again. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  ofType(type: string): Received[] {
    return this.received.filter((message) => message.type === type);
  }

  /** Each message id once: what a receiver that drops repeats would see. */
  uniqueIds(): Set<string> {
    return new Set(this.received.map((message) => message.id));
  }
}
