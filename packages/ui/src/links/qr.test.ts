import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, test } from 'vitest';
import { qrFileName, qrPngDataUrl, qrSvg } from './qr.ts';

/** What a phone's camera reads from the PNG: decoded by jsQR, a reader independent of the encoder. */
async function readPng(dataUrl: string) {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  const png = PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  return { width: png.width, height: png.height, text: code?.data };
}

describe('QR codes of short URLs', () => {
  test('the PNG is 512 pixels square and reads back as exactly the short URL', async () => {
    for (const url of ['https://sho.rt/abc123', 'https://links.example.com/Spring-Launch_2026']) {
      expect(await readPng(await qrPngDataUrl(url))).toEqual({ width: 512, height: 512, text: url });
    }
  });

  test('the SVG is a standalone document, dark on white, that a browser can show as an image', async () => {
    const svg = await qrSvg('https://sho.rt/abc123');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain('#111827');
    expect(svg).toContain('#ffffff');
    // Different URLs, different codes.
    expect(await qrSvg('https://sho.rt/abc124')).not.toBe(svg);
  });

  test('download names carry the slug, safe for any file system', () => {
    expect(qrFileName('https://sho.rt/abc123', 'png')).toBe('qr-abc123.png');
    expect(qrFileName('https://sho.rt/Spring-Launch_2026', 'svg')).toBe('qr-Spring-Launch_2026.svg');
    expect(qrFileName('https://sho.rt/a%2Fb', 'png')).toBe('qr-a_2Fb.png');
    expect(qrFileName('https://sho.rt/', 'svg')).toBe('qr-link.svg');
  });
});
