import { z } from 'zod';
import { ERROR_CODES } from './errors.ts';

/** The body of every REST error response. `field` names the offending request field. */
export const ErrorBodySchema = z
  .object({
    code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable error code.' }),
    message: z.string().meta({ description: 'What went wrong, for a person.' }),
    field: z.string().optional().meta({ description: 'The request field at fault; always present on VALIDATION_ERROR and SLUG_INVALID.' }),
  })
  .meta({ id: 'Error', example: { code: 'VALIDATION_ERROR', message: 'title must not be empty', field: 'title' } });

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
