import { LinkQrCodeSchema, LinkQrQuerySchema } from '@shortlinks/contract';
import type { TRPCRouterRecord } from '@trpc/server';
import { pathParam } from './path-param.ts';
import { authedProcedure } from './trpc.ts';

export const linksQrRouter = {
  /**
   * A link's QR code (docs/redirects.md, "QR codes and scans"). tRPC answers it as JSON (the SVG
   * document, or the PNG in base64); REST answers the image itself with its media type, which
   * trpc-to-openapi cannot, so the server's REST plugin serves this path by calling this procedure
   * (`image`), and the OpenAPI document describes it from this meta.
   */
  qr: authedProcedure({
    openapi: {
      method: 'GET',
      path: '/links/{id}/qr',
      tags: ['Links'],
      summary: "The link's QR code, as SVG or PNG",
      description:
        "Encodes the link's short_url with `?qr=1`: a visit from it is counted as a scan (`qr` in the statistics' `triggers`), " +
        'and the parameter is not passed on to the destination.',
      protect: true,
      enabled: false,
    },
    role: 'viewer',
    scope: 'links.read',
    success: 200,
    errors: ['VALIDATION_ERROR', 'LINK_NOT_FOUND'],
    image: true,
  })
    .input(LinkQrQuerySchema)
    .output(LinkQrCodeSchema)
    .query(({ ctx, input: { id, ...options } }) => ctx.services.qrCodes.draw(ctx.accountId, pathParam('link', id), options)),
} satisfies TRPCRouterRecord;
