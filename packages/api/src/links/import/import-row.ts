/**
 * What an import file gives, whichever tool wrote it: the file formats (`formats/`) read rows into
 * these, and the import (`pnpm shortlinks import`) applies them under the API's rules.
 */

/** One link read from an import file, in our words; what the file does not carry is absent. */
export interface ImportedLink {
  slug?: string;
  destination_url: string;
  title?: string;
  tag_names?: string[];
  external_id?: string;
  comments?: string;
  /** Unix milliseconds. */
  expires_at?: number;
  expiration_url?: string;
  /** Unix milliseconds; kept, so the link keeps its age. */
  created_at?: number;
  /** The domain the file puts the link on (docs/domains.md): kept when it is one of the workspace's verified domains. */
  domain?: string;
  /** Smart links (issue #30), as our own export writes them: the password's argon2id hash, never a password. */
  password_hash?: string;
  max_clicks?: unknown;
  /** As read (JSON): checked under the API's rules by the import. */
  rules?: unknown;
  preview?: unknown;
}

/** Why a row could not be read: reported with its row number, never applied. */
export interface RowProblem {
  /** The API's error code where one fits (VALIDATION_ERROR), or an import's own (PASSWORD_PROTECTED). */
  code: string;
  message: string;
  field?: string;
}

/** One row of the file: the link it holds, or why it holds none. `row` is how a person finds it in the file. */
export type ImportRow = { row: number; link: ImportedLink } | { row: number; problem: RowProblem };

// The formats are the contract's: the API's `format` takes them too.
export { IMPORT_FORMATS, type ImportFormat } from '@shortlinks/contract';
