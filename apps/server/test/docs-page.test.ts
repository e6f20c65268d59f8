import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A CSP header as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    (header ?? '').split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('the API reference at /docs has the dashboard’s protections', () => {
  test('the page: a CSP of its own files and its one inline script, never framed, no Referer, no shared window', async () => {
    const response = await fetch(`${server.origin}/docs/`);
    expect(response.status).toBe(200);
    const page = await response.text();
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'none'"]);
    for (const directive of ['connect-src', 'font-src', 'img-src', 'style-src']) {
      expect(
        csp[directive]?.filter((source) => /^https?:|^\*/.test(source)),
        directive,
      ).toEqual([]);
    }
    // Scripts: this origin's files, and the page's inline start-up script by its exact hash.
    const inline = [...page.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(([, code]) => code ?? '');
    expect(inline.length).toBeGreaterThan(0);
    expect(csp['script-src']).toEqual([
      "'self'",
      ...inline.map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`),
    ]);
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-eval'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  test('everything the page loads is served here, and the vendor’s cloud features are off', async () => {
    const page = await (await fetch(`${server.origin}/docs/`)).text();
    const sources = [...page.matchAll(/\bsrc="([^"]+)"/g)].map(([, src]) => src);
    expect(sources).toEqual(['js/scalar.js']);
    const script = await fetch(`${server.origin}/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^application\/javascript/);
    await script.arrayBuffer();
    expect(page).not.toMatch(/https?:\/\//);
    const configuration = JSON.parse(page.match(/createApiReference\('#app', ([\s\S]*)\)\s*<\/script>/)?.[1] ?? '');
    expect(configuration).toMatchObject({
      withDefaultFonts: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      telemetry: false,
      authentication: { preferredSecurityScheme: 'bearerAuth' },
    });
  });

  test('the document the page reads names the bearer scheme; the dashboard keeps its own headers', async () => {
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
    };
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const dashboard = await fetch(`${server.origin}/app/`);
    await dashboard.arrayBuffer();
    expect(dashboard.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(directives(dashboard.headers.get('content-security-policy'))['script-src']).toEqual(["'self'"]);
  });
});
