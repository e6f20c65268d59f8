import { type LinkQrCode, type LinkQrOptions, QR_MEDIA_TYPES, qrTarget } from '@shortlinks/contract';
import QRCode from 'qrcode';
import { validationError } from '../errors.ts';
import type { LinkService } from './link-service.ts';

/**
 * A link's QR code (GET /links/{id}/qr, docs/redirects.md "QR codes and scans"), drawn by the
 * `qrcode` package. It encodes the link's `short_url` with `?qr=1`, so a visit from it is counted
 * as a scan (the statistics' `triggers`); the destination never sees the parameter.
 */
export class QrCodeService {
  readonly #links: LinkService;

  constructor(links: LinkService) {
    this.#links = links;
  }

  async draw(accountId: string, ref: string, options: LinkQrOptions): Promise<LinkQrCode> {
    const link = await this.#links.get(accountId, ref);
    return drawQrCode(qrTarget(link.short_url), options);
  }
}

/** The code of `text` as the options ask; a size too small for its modules is refused, never drawn larger or blurred. */
export async function drawQrCode(text: string, { format, size, margin, level, fg, bg }: LinkQrOptions): Promise<LinkQrCode> {
  const modules = QRCode.create(text, { errorCorrectionLevel: level }).modules.size + 2 * margin;
  // At least one pixel a module: with less, the drawing would merge modules (qrcode would draw it larger instead).
  if (size < modules) {
    throw validationError('size', `size must be at least ${modules} pixels for this code (${modules} modules with the margin)`);
  }
  const drawing = { errorCorrectionLevel: level, margin, width: size, color: { dark: fg, light: bg } };
  const common = { format, content_type: QR_MEDIA_TYPES[format], text };
  if (format === 'svg') return { ...common, data: await QRCode.toString(text, { ...drawing, type: 'svg' }) };
  return { ...common, data: (await QRCode.toBuffer(text, { ...drawing, type: 'png' })).toString('base64') };
}
