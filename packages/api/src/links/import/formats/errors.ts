import { IMPORT_FORMATS } from '../import-row.ts';

/**
 * Why a whole import file cannot be read (as opposed to one row of it): the CLI prints the message
 * and exits 2. `line` is where reading stopped, when the file says.
 */
export class ImportFileError extends Error {
  readonly code: 'UNKNOWN_FORMAT' | 'UNREADABLE_FILE' | 'MALFORMED_FILE';
  readonly line: number | undefined;

  constructor(code: ImportFileError['code'], message: string, line?: number) {
    super(message);
    this.name = 'ImportFileError';
    this.code = code;
    this.line = line;
  }
}

export function unknownFormat(what: string): ImportFileError {
  return new ImportFileError(
    'UNKNOWN_FORMAT',
    `${what}; the formats an import reads are ${IMPORT_FORMATS.join(', ')} (name one with --format)`,
  );
}
