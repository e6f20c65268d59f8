import { crc32 } from 'node:zlib';

/**
 * The file `pnpm shortlinks backup` writes (docs/operations.md): gzip around a series of frames,
 * each a type byte, a 32-bit big-endian length, the CRC-32 of its bytes and that many bytes.
 *
 *   H  the header, JSON ({@link BackupHeader})
 *   T  a table starts, JSON `{ "table": name }`, in the header's order
 *   D  rows of that table as `COPY … TO STDOUT` text (one row a line)
 *   E  the table ends, JSON `{ "rows": n }`
 *   Z  the backup is complete
 *
 * Text rather than COPY's binary format: it is what PostgreSQL promises to read across versions
 * and machines. The closing frames make a truncated file an error, not a smaller database. gzip
 * checks its own checksum only at the very end, after the rows were loaded; each frame's lets a
 * damaged file be named as such before its rows reach PostgreSQL.
 */

/** Raised when this build cannot write or read a backup: `code` says which case, for the CLI. */
export class BackupError extends Error {
  readonly code: BackupErrorCode;
  constructor(code: BackupErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export type BackupErrorCode =
  | 'NOTHING_TO_BACK_UP'
  | 'NOT_A_BACKUP'
  | 'TRUNCATED'
  | 'CORRUPT'
  | 'UNSUPPORTED_FORMAT_VERSION'
  | 'NEWER_SCHEMA'
  | 'SCHEMA_MISMATCH'
  | 'DATABASE_NOT_EMPTY';

export const BACKUP_FORMAT = 'shortlinks-backup';
/** Raised when the frames or the header change in a way an older build could not read. */
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupTable {
  name: string;
  /** The columns written, in order: every stored column (generated ones are computed again). */
  columns: string[];
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  /** `server_version` of the PostgreSQL that was backed up, for the operator's information. */
  postgres: string;
  /** The migrations applied to the database, in the order they were applied. */
  migrations: string[];
  /** Every table of the schema, parents before the tables that refer to them. */
  tables: BackupTable[];
}

export type FrameType = 'H' | 'T' | 'D' | 'E' | 'Z';
export interface Frame {
  type: FrameType;
  payload: Buffer;
}

const FRAME_TYPES = new Set<string>(['H', 'T', 'D', 'E', 'Z']);
const FRAME_HEAD = 9;
/** No frame this build writes is larger (data frames hold about 64 KiB of rows, or one larger row). */
const LARGEST_FRAME = 1 << 30;

export function frame(type: FrameType, payload: Buffer | string | object = Buffer.alloc(0)): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const head = Buffer.alloc(FRAME_HEAD);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(body.length, 1);
  head.writeUInt32BE(crc32(body), 5);
  return Buffer.concat([head, body]);
}

/**
 * The frames of a decompressed backup, read as they arrive (memory holds one frame at most).
 * Ends cleanly only at a frame boundary; bytes that cannot be a frame are CORRUPT.
 */
export async function* readFrames(source: AsyncIterable<Buffer>): AsyncGenerator<Frame> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= FRAME_HEAD) {
      const type = pending.toString('latin1', 0, 1);
      const length = pending.readUInt32BE(1);
      if (!FRAME_TYPES.has(type) || length > LARGEST_FRAME) throw new BackupError('CORRUPT', 'the file is damaged (an unreadable frame)');
      if (pending.length < FRAME_HEAD + length) break;
      const payload = pending.subarray(FRAME_HEAD, FRAME_HEAD + length);
      if (crc32(payload) !== pending.readUInt32BE(5)) throw new BackupError('CORRUPT', 'the file is damaged (a checksum does not match)');
      yield { type: type as FrameType, payload };
      pending = pending.subarray(FRAME_HEAD + length);
    }
  }
  if (pending.length > 0) throw new BackupError('TRUNCATED', 'the file ends in the middle of a frame (was it copied whole?)');
}

export function parseJson<T>(frame: Frame, what: string): T {
  try {
    return JSON.parse(frame.payload.toString('utf8')) as T;
  } catch {
    throw new BackupError('CORRUPT', `the file is damaged (${what} is not JSON)`);
  }
}

/** Rows in COPY text, which ends every row with a newline and escapes those inside values. */
export function countRows(chunk: Buffer): number {
  let rows = 0;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows += 1;
  return rows;
}
