import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The pages short links lead to, served on loopback. The browser reaches them as
 * `http://<name>.example.com:<port>/…` (its host resolver maps example.com to loopback), because
 * the server rightly refuses loopback addresses as destinations. Counts the visits that arrive.
 */
export async function startDestinations(): Promise<{
  url(host: string, pathname: string): string;
  visits: string[];
  close(): Promise<void>;
}> {
  const visits: string[] = [];
  const server: Server = createServer((request, response) => {
    visits.push(`${request.headers.host}${request.url}`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Arrived at ${request.url}</title><h1>Arrived</h1>`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (host, pathname) => `http://${host}.example.com:${port}${pathname}`,
    visits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
