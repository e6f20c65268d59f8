import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 2, color: { dark: '#111827', light: '#ffffff' } } as const;

/** The QR code of a short URL as an SVG document (shown, and offered for download). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: 'svg' });
}

/** The QR code as a PNG data URL, 512 pixels wide, for download. */
export function qrPngDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { ...OPTIONS, width: 512 });
}

/** A file name for the download: the slug of the short URL. */
export function qrFileName(shortUrl: string, extension: 'png' | 'svg'): string {
  const slug = new URL(shortUrl).pathname.replace(/^\/+/, '') || 'link';
  return `qr-${slug.replace(/[^A-Za-z0-9_-]/g, '_')}.${extension}`;
}
