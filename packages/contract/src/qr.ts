import { z } from 'zod';
import { LinkRefSchema } from './link.ts';
import { QR_FORMATS, QR_LEVELS, QR_LIMITS } from './qr-rules.ts';

const { minSize, maxSize, maxMargin } = QR_LIMITS;

/** `#rrggbb`, `rrggbb`, `#rgb` or `rgb` (a query string's `#` must be sent as `%23`), as `#rrggbb`. */
const colour = (name: string) =>
  z
    .string({ error: `${name} must be a hex colour such as 1f2937 or #1f2937` })
    .regex(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${name} must be a hex colour such as 1f2937 or #1f2937`)
    .transform((value) => {
      const hex = value.replace(/^#/, '').toLowerCase();
      return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`;
    });

const whole = (name: string, min: number, max: number, unit: string) =>
  z.coerce
    .number<number>({ error: `${name} must be a whole number of ${unit} from ${min} to ${max}` })
    .int(`${name} must be a whole number of ${unit} from ${min} to ${max}`)
    .min(min, `${name} must be a whole number of ${unit} from ${min} to ${max}`)
    .max(max, `${name} must be a whole number of ${unit} from ${min} to ${max}`);

export const LinkQrQuerySchema = z
  .strictObject({
    id: LinkRefSchema,
    format: z
      .enum(QR_FORMATS, { error: 'format must be svg or png' })
      .default('svg')
      .meta({ description: '`svg` (image/svg+xml, the default) or `png` (image/png).' }),
    size: whole('size', minSize, maxSize, 'pixels')
      .default(QR_LIMITS.defaultSize)
      .meta({
        description: `Width and height in pixels, quiet zone included: ${minSize} to ${maxSize}, default ${QR_LIMITS.defaultSize}.`,
      }),
    margin: whole('margin', 0, maxMargin, 'modules')
      .default(QR_LIMITS.defaultMargin)
      .meta({
        description: `Quiet zone around the code in modules: 0 to ${maxMargin}, default ${QR_LIMITS.defaultMargin} (the standard's).`,
      }),
    level: z
      .enum(QR_LEVELS, { error: 'level must be L, M, Q or H' })
      .default(QR_LIMITS.defaultLevel)
      .meta({ description: 'Error correction: L (7%), M (15%, the default), Q (25%) or H (30%).' }),
    fg: colour('fg')
      .default(QR_LIMITS.defaultForeground)
      .meta({ description: 'Colour of the modules: hex `rrggbb` or `rgb`, with or without `#` (sent as `%23`). Default 000000.' }),
    bg: colour('bg')
      .default(QR_LIMITS.defaultBackground)
      .meta({ description: 'Background colour, as fg. Default ffffff. Must differ from fg.' }),
  })
  .refine((query) => query.fg !== query.bg, { path: ['bg'], message: 'bg must differ from fg: the code could not be read' });

export const LinkQrCodeSchema = z
  .object({
    format: z.enum(QR_FORMATS),
    content_type: z.string().meta({ description: '`image/svg+xml` or `image/png`.' }),
    text: z.string().meta({ description: "What the code encodes: the link's short_url with `?qr=1`, so a scan is counted as one." }),
    data: z.string().meta({ description: 'The SVG document, or the PNG file in base64.' }),
  })
  .meta({ id: 'LinkQrCode' });

export type LinkQrQuery = z.input<typeof LinkQrQuerySchema>;
export type LinkQrOptions = Omit<z.output<typeof LinkQrQuerySchema>, 'id'>;
export type LinkQrCode = z.infer<typeof LinkQrCodeSchema>;
