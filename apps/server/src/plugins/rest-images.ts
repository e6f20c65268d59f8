import type { FastifyReply } from 'fastify';

/** What a procedure with `image` in its meta answers over tRPC: the image as text (SVG) or base64 (PNG). */
export interface ImageResult {
  content_type: string;
  data: string;
}

/**
 * The answer of a procedure whose result is an image (`image` in its meta: GET /links/{id}/qr), as
 * the image itself with its media type. The SVG is drawn by `qrcode` from the link's own URL and
 * checked colours, never from free text; still, `nosniff` and a CSP without any source keep a
 * browser from running anything an image might hold.
 */
const IMAGE_HEADERS = {
  'cache-control': 'private, no-cache',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
};

export function sendImage(reply: FastifyReply, { content_type, data }: ImageResult): FastifyReply {
  const body = content_type === 'image/png' ? Buffer.from(data, 'base64') : Buffer.from(data, 'utf8');
  return reply.code(200).type(content_type).headers(IMAGE_HEADERS).send(body);
}
