import type { Meta } from '@shortlinks/api';
import { LinkQrQuerySchema, QR_MEDIA_TYPES } from '@shortlinks/contract';
import type { OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';

/**
 * The operation of a procedure whose REST answer is an image (GET /links/{id}/qr), which
 * trpc-to-openapi leaves out (it would describe a JSON answer): the path's id, the query's
 * parameters from the input schema, and the image in each media type. The document's loop adds
 * its errors and headers like any operation's.
 */
export function addImageOperation(document: OpenAPIObject, meta: Meta): void {
  const { path, method, summary, description, tags } = meta.openapi;
  const query = z.toJSONSchema(LinkQrQuerySchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Record<string, unknown>>;
  };
  const { id, ...options } = query.properties;
  document.paths ??= {};
  const paths = document.paths as Record<string, Record<string, unknown>>;
  paths[path] = {
    ...paths[path],
    [method.toLowerCase()]: {
      summary,
      description,
      tags,
      security: [{ bearerAuth: [] }],
      parameters: [
        { name: 'id', in: 'path', required: true, description: id?.description, schema: { type: 'string' } },
        ...Object.entries(options).map(([name, { description: said, ...schema }]) => ({
          name,
          in: 'query',
          required: false,
          description: said,
          schema,
        })),
      ],
      responses: {
        '200': {
          description: "The QR code of the link's short_url with `?qr=1`.",
          content: {
            [QR_MEDIA_TYPES.svg]: { schema: { type: 'string', description: 'An SVG document (format=svg, the default).' } },
            [QR_MEDIA_TYPES.png]: { schema: { type: 'string', format: 'binary', description: 'A PNG image (format=png).' } },
          },
        },
      },
    },
  };
}
