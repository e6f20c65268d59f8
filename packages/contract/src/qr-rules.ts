/**
 * A link's QR code (GET /links/{id}/qr, docs/redirects.md "QR codes and scans"): what it encodes
 * and the bounds of its drawing. Without zod, so the dashboard and the extension draw the same
 * code as the API.
 */

/** The parameter a QR code's URL carries, so a scan is counted apart from a click (statistics' `triggers`). */
export const QR_SCAN_PARAMETER = 'qr';

/** The text a link's QR code encodes: its short URL with `?qr=1`. */
export function qrTarget(shortUrl: string): string {
  return `${shortUrl}${shortUrl.includes('?') ? '&' : '?'}${QR_SCAN_PARAMETER}=1`;
}

export const QR_FORMATS = ['svg', 'png'] as const;
export type QrFormat = (typeof QR_FORMATS)[number];

/** Error correction: L recovers 7% of the code, M 15%, Q 25%, H 30%. */
export const QR_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type QrLevel = (typeof QR_LEVELS)[number];

export const QR_MEDIA_TYPES: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' };

/** Width and height in pixels (the SVG's too), quiet zone in modules, and the defaults. */
export const QR_LIMITS = {
  minSize: 64,
  maxSize: 2048,
  defaultSize: 512,
  maxMargin: 16,
  defaultMargin: 4,
  defaultLevel: 'M' as QrLevel,
  defaultForeground: '#000000',
  defaultBackground: '#ffffff',
} as const;
