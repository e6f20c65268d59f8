import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * `GET /metrics` in Prometheus's text format, on a listener of its own (`METRICS_PORT`): kept
 * off the public port and out of Fastify, so scraping shares nothing with the API (no rate
 * limit, no request log line) and a firewall can keep it private. Anything else is a 404.
 */
export async function listenForMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only /metrics is served here\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Use GET\n');
      return;
    }
    registry.metrics().then(
      (body) => {
        response.writeHead(200, { 'content-type': registry.contentType }).end(request.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`Metrics failed: ${(error as Error).message}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`metrics: could not listen on ${host}:${port}: ${error.message}`)));
    server.listen(port, host, resolve);
  });
  return server;
}
