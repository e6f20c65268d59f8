/**
 * The longest record an import reads, in bytes: a CSV record, a JSON line, or one item of a JSON
 * document. A longer one is no link's (a stray quote, a file that is not what it says, a value
 * padded to exhaust memory), and stops the file as soon as it is read that far rather than after
 * holding all of it. The longest row a legal link makes is our own export's: three URLs and
 * comments of 2,048 characters each, a title of 200, ten tags of 50 (up to 100 when escaped), an
 * external id of 255 and short fields, under 10,000 characters, at most 4 bytes each in UTF-8
 * (6 as a JSON escape): under 60 KB. 256 KiB is four times that, so no real row reaches it
 * (another tool's longer URL or description is still read, and refused or cut as a row).
 */
export const MAX_RECORD_BYTES = 256 * 1024;

/** Why reading stops at a record over {@link MAX_RECORD_BYTES}. */
export const TOO_LONG = `runs past ${MAX_RECORD_BYTES / 1024} KiB, which no link does`;
