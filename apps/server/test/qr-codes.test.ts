import { createClient } from '@shortlinks/client';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * QR codes with scan counts (issue #30): GET /links/{id}/qr draws the link's short_url with
 * `?qr=1`; a visit carrying it is counted as a scan (`qr` in the statistics' triggers), and the
 * destination receives no `qr` parameter.
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([createAccount(server), createAccount(server)]);
});
afterAll(() => server.close());

/** A PNG's size and the text of the QR code in it. */
function decodePng(bytes: Buffer): { width: number; height: number; text: string | undefined } {
  const png = PNG.sync.read(bytes);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { width: png.width, height: png.height, text: code?.data };
}

async function qr(id: string, query = '', account = alice) {
  return fetch(`${server.api}/links/${id}/qr${query}`, { headers: { authorization: `Bearer ${account.key}` } });
}

describe('GET /links/{id}/qr', () => {
  test('a PNG of the given size that decodes to exactly short_url?qr=1', async () => {
    const link = await createLink(alice, { slug: 'qr-png' });
    const response = await qr(link.id, '?format=png&size=300');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(decodePng(Buffer.from(await response.arrayBuffer()))).toEqual({ width: 300, height: 300, text: `${link.short_url}?qr=1` });
  });

  test('by default an SVG, 512 pixels, black on white; by ext_ id too', async () => {
    const link = await createLink(alice, { slug: 'qr-svg', external_id: 'qr-ext' });
    for (const id of [link.id, 'ext_qr-ext']) {
      const response = await qr(id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const svg = await response.text();
      expect(svg).toMatch(/^<svg[^>]* width="512" height="512"/);
      expect(svg).toContain('fill="#ffffff"');
      expect(svg).toContain('stroke="#000000"');
    }
  });

  test('level, margin and colours are honoured; the colours still decode', async () => {
    const link = await createLink(alice, { slug: 'qr-styled' });
    const svg = await (await qr(link.id, '?fg=1F2937&bg=%23fef3c7&level=H&margin=2')).text();
    expect(svg).toContain('stroke="#1f2937"');
    expect(svg).toContain('fill="#fef3c7"');
    const png = await qr(link.id, '?format=png&size=400&level=H&margin=0&fg=123&bg=ffffff');
    expect(decodePng(Buffer.from(await png.arrayBuffer())).text).toBe(`${link.short_url}?qr=1`);
    // Higher correction, more modules: the H code is larger than the L one at the same size.
    const low = await (await qr(link.id, '?level=L')).text();
    const high = await (await qr(link.id, '?level=H')).text();
    expect(high.length).toBeGreaterThan(low.length);
  });

  test.each([
    ['?format=gif', 'format'],
    ['?size=10', 'size'],
    ['?size=5000', 'size'],
    ['?size=big', 'size'],
    ['?size=100.5', 'size'],
    ['?margin=-1', 'margin'],
    ['?margin=17', 'margin'],
    ['?level=X', 'level'],
    ['?fg=red', 'fg'],
    ['?bg=%23ggg', 'bg'],
    ['?fg=000&bg=000000', 'bg'],
    ['?colour=red', 'colour'],
  ])('%s: 422 VALIDATION_ERROR naming %s', async (query, field) => {
    const link = await createLink(alice);
    const response = await qr(link.id, query);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_ERROR', field });
  });

  test('a size too small for the code with its margin: 422 naming size, never an image drawn larger', async () => {
    const link = await createLink(alice, { slug: `qr-${'long'.repeat(14)}` });
    const response = await qr(link.id, '?size=64&margin=16&level=H');
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'size',
      message: expect.stringMatching(/at least \d+ pixels/),
    });
    expect((await qr(link.id, '?size=64&margin=0&level=L')).status).toBe(200);
  });

  test("another account's link, an unknown one, or a deleted one: 404; without a key: 401", async () => {
    const link = await createLink(alice);
    expect((await qr(link.id, '', bob)).status).toBe(404);
    expect(await (await qr('lnk_doesnotexist00', '')).json()).toMatchObject({ code: 'LINK_NOT_FOUND' });
    await alice.call('DELETE', `/links/${link.id}`);
    expect((await qr(link.id)).status).toBe(404);
    expect((await fetch(`${server.api}/links/${link.id}/qr`)).status).toBe(401);
  });

  test('the SDK: client.links.qr answers the SVG, or the PNG in base64, over tRPC', async () => {
    const link = await createLink(alice, { slug: 'qr-sdk' });
    const client = createClient({ baseUrl: server.origin, apiKey: alice.key });
    const png = await client.links.qr(link.id, { format: 'png', size: 256 });
    expect(png).toMatchObject({ format: 'png', content_type: 'image/png', text: `${link.short_url}?qr=1` });
    expect(decodePng(Buffer.from(png.data, 'base64'))).toEqual({ width: 256, height: 256, text: `${link.short_url}?qr=1` });
    const svg = await client.links.qr(link.id);
    expect(svg.content_type).toBe('image/svg+xml');
    expect(svg.data).toMatch(/^<svg/);
    await expect(client.links.qr(link.id, { size: 1 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'size' });
  });

  test('the OpenAPI document describes the image answers and the parameters', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
    const document: any = await (await fetch(`${server.api}/openapi.json`)).json();
    const operation = document.paths['/links/{id}/qr'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['image/svg+xml', 'image/png']);
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'id',
      'format',
      'size',
      'margin',
      'level',
      'fg',
      'bg',
    ]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '422']));
  });
});

describe('a scan: a visit with qr=1', () => {
  test('is counted as qr, apart from clicks, on both redirect paths; the destination never gets qr', async () => {
    const link = await createLink(alice, { slug: 'qr-scan', destination_url: 'https://example.com/landing?ref=abc' });
    const visit = async (query: string) => {
      const response = await fetch(`${server.origin}/qr-scan${query}`, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
      expect(response.status).toBe(302);
      return response.headers.get('location');
    };
    // The first visit fills the redirect cache (Fastify's route), the next are answered before Fastify.
    expect(await visit('?qr=1')).toBe('https://example.com/landing?ref=abc');
    expect(await visit('?qr=1')).toBe('https://example.com/landing?ref=abc');
    expect(await visit('?utm_source=poster&qr=1')).toBe('https://example.com/landing?ref=abc');
    expect(await visit('')).toBe('https://example.com/landing?ref=abc');
    expect(await visit('?qr=0')).toBe('https://example.com/landing?ref=abc');
    await server.services.clicks.flush();

    const stats = await alice.call('GET', `/links/${link.id}/stats`);
    expect(stats.body.totals.clicks).toBe(5);
    expect(stats.body.breakdowns.triggers).toEqual([
      { value: 'qr', clicks: 3 },
      { value: 'link', clicks: 2 },
    ]);
    const account = await alice.call('GET', '/stats');
    expect(account.body.breakdowns.triggers).toEqual(expect.arrayContaining([{ value: 'qr', clicks: 3 }]));
  });

  test("the decoded code's URL, followed, is a scan", async () => {
    const link = await createLink(alice, { slug: 'qr-follow' });
    const png = await qr(link.id, '?format=png');
    const text = decodePng(Buffer.from(await png.arrayBuffer())).text ?? '';
    const target = new URL(text);
    const response = await fetch(`${server.origin}${target.pathname}${target.search}`, {
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(response.headers.get('location')).toBe(link.destination_url);
    await server.services.clicks.flush();
    const stats = await alice.call('GET', `/links/${link.id}/stats`);
    expect(stats.body.breakdowns.triggers).toEqual([{ value: 'qr', clicks: 1 }]);
  });
});
