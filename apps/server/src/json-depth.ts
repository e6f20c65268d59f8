import { AppError } from '@shortlinks/api/errors';

/**
 * Arrays and objects a request body may nest. Ours nest three levels at most (a tRPC batch of a
 * link with its utm object), so 32 refuses no real request; deeper bodies are refused before they
 * are parsed, because code after JSON.parse walks them recursively (trpc-to-openapi serialises a
 * REST body again, and 30,000 levels overflowed the stack: a 500).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The levels a bulk body adds around each item (`{"links": [item]}`): an item may nest as deep as
 * the same body sent alone, so that one too deep is refused alone, by its own rules
 * (docs/api-decisions.md, "Bulk operations").
 */
export const BULK_WRAPPER_DEPTH = 2;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How deep a route's JSON body may nest, if not {@link MAX_JSON_DEPTH} (a bulk call's). */
    jsonDepth?: number;
  }
}

/** The refusal of a body (`field: 'body'`) or a tRPC query input (`'input'`) nested too deep. */
export function tooDeep(field: 'body' | 'input', maxDepth = MAX_JSON_DEPTH): AppError {
  return new AppError('VALIDATION_ERROR', `The ${field} must not nest arrays and objects more than ${maxDepth} levels deep`, field);
}

/**
 * Whether JSON text nests arrays and objects more than `maxDepth` levels deep, in one
 * pass that stops at the first level too many; brackets inside strings are text. Hand-written
 * because neither JSON.parse nor Fastify's parser (secure-json-parse) has a depth limit, and
 * counting on the text costs a fraction of parsing it (bodies are at most 64 KiB). Text that is
 * not JSON at all is left to the parser to refuse.
 */
export function nestsTooDeep(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
