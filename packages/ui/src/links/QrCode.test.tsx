// @vitest-environment happy-dom

import { qrTarget } from '@shortlinks/contract/rules';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { QrCode } from './QrCode.tsx';
import { qrSvg } from './qr.ts';

afterEach(cleanup);

test('shows a spinner while drawing, then the code of url?qr=1 with PNG and SVG downloads named by slug', async () => {
  render(<QrCode url="https://sho.rt/abc123" size={96} />);
  expect(screen.getByRole('status', { name: 'Drawing the QR code' })).toBeTruthy();

  const image = (await screen.findByAltText('QR code of https://sho.rt/abc123')) as HTMLImageElement;
  expect(image.getAttribute('width')).toBe('96');
  expect(decodeURIComponent(image.getAttribute('src')?.replace(/^data:image\/svg\+xml;charset=utf-8,/, '') ?? '')).toBe(
    await qrSvg(qrTarget('https://sho.rt/abc123')),
  );
  const png = screen.getByRole('link', { name: 'PNG' });
  expect(png.getAttribute('download')).toBe('qr-abc123.png');
  expect(png.getAttribute('href')).toMatch(/^data:image\/png;base64,/);
  expect(screen.getByRole('link', { name: 'SVG' }).getAttribute('download')).toBe('qr-abc123.svg');
});
