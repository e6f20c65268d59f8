import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Web pages to shorten, served on loopback. The browser reaches them as
 * `http://<name>.example.com:<port>/…` (its host resolver maps example.com to loopback), because
 * the server rightly refuses to shorten loopback addresses themselves.
 */
export async function startTestPages(): Promise<{ url(host: string, pathname: string): string; loopback: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const title = `Page ${request.url}`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>${title}</title><h1>${title}</h1><p><a id="out" href="http://docs.example.com/guide">A link to another page</a></p>`,
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (host, pathname) => `http://${host}.example.com:${port}${pathname}`,
    /** The same server by its loopback address: a secure context, where the clipboard may be read. */
    loopback: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
