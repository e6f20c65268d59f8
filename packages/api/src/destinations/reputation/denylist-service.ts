import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { plainReader, reader } from '../../database/database.ts';
import { destinationKeys, entryKey, prefixAuthority } from './denylist-prefix.ts';
import { comparableHost, hostAndParents, type ReputationVerdict, type UrlReputation } from './reputation-chain.ts';

export type DenylistKind = 'domain' | 'prefix';

export interface DenylistEntryView {
  kind: DenylistKind;
  value: string;
  created_at: number;
}

/** Why an operator's denylist entry cannot be used, as a message for the CLI. */
export class InvalidDenylistEntry extends Error {}

/**
 * The entry an operator typed, normalised: a URL (`https://evil.example/phish`) is a prefix of
 * refused URLs, anything else a domain (`evil.example`, covering its subdomains). Both are stored
 * in the form URLs are checked in: ASCII (punycode) host, lower case, no trailing dot; a prefix
 * keeps its scheme for the list, but is matched whatever the scheme (denylist-prefix.ts).
 */
export function denylistEntry(input: string): { kind: DenylistKind; value: string } {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new InvalidDenylistEntry(`"${input}" is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new InvalidDenylistEntry('a URL prefix must start with http:// or https://');
    // Destinations with a user name are refused anyway, so such a prefix could never match.
    if (url.username !== '' || url.password !== '') throw new InvalidDenylistEntry('a URL prefix must not contain a user name or password');
    return { kind: 'prefix', value: normalisedUrl(url) };
  }
  let host: string;
  try {
    host = comparableHost(new URL(`http://${text}/`));
  } catch {
    throw new InvalidDenylistEntry(`"${input}" is neither a domain nor an http(s) URL`);
  }
  if (host === '' || text.includes('/') || text.includes('@') || text.includes(':')) {
    throw new InvalidDenylistEntry(`"${input}" is neither a domain nor an http(s) URL`);
  }
  return { kind: 'domain', value: host };
}

/** The form a prefix entry is stored (and listed) in: WHATWG-serialised, host without trailing dots. */
function normalisedUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.hostname = comparableHost(copy);
  return copy.href;
}

/** Whether a destination (in its comparable forms) starts with a stored prefix entry. */
function matchesPrefix(entry: string, destinationKeys: string[]): boolean {
  let key: string;
  try {
    key = entryKey(entry);
  } catch {
    return false; // not a URL: only a row written by hand, outside the CLI, can be one
  }
  return destinationKeys.some((destination) => destination.startsWith(key));
}

/**
 * The operator's denylist, stored in PostgreSQL so the CLI changes it for every running server
 * at once (each check is one indexed query; destinations are checked only on writes).
 */
export class DenylistService implements UrlReputation {
  readonly provider = 'denylist';
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async check(url: string): Promise<ReputationVerdict> {
    const rows = await this.lookup(url).execute();
    const domain = rows.find((row) => row.kind === 'domain');
    if (domain) return { flagged: true, reason: `the domain ${domain.value} is on the denylist` };
    const keys = destinationKeys(url);
    const prefix = rows.find((row) => row.kind === 'prefix' && matchesPrefix(row.value, keys));
    return prefix ? { flagged: true, reason: 'on the denylist' } : { flagged: false };
  }

  /**
   * The one query a check makes: the domain entries for the host or a parent of it (the unique
   * index on kind and value), and the prefix entries filed under its host and port (the
   * expression index on the authority of the stored URL), which `check` then compares.
   */
  lookup(url: string) {
    const parsed = new URL(url);
    // Two text columns: nothing to convert, so without the ORM's per-row conversion (database.ts).
    return plainReader(this.#orm)
      .selectFrom('denylist_entry')
      .select(['kind', 'value'])
      .where((eb) =>
        eb.or([
          eb.and([eb('kind', '=', 'domain'), eb('value', 'in', hostAndParents(comparableHost(parsed)))]),
          eb.and([eb('kind', '=', 'prefix'), eb(sql<string>`substring(value from '^[a-z]+://([^/]*)')`, '=', prefixAuthority(parsed))]),
        ]),
      );
  }

  /** Adds an entry; false when it was already there. */
  async add(input: string): Promise<{ added: boolean; entry: { kind: DenylistKind; value: string } }> {
    const entry = denylistEntry(input);
    const result = await reader(this.#orm)
      .insertInto('denylist_entry')
      .values(entry)
      .onConflict((conflict) => conflict.constraint('denylist_entry_kind_value_key').doNothing())
      .executeTakeFirst();
    return { added: (result.numInsertedOrUpdatedRows ?? 0n) > 0n, entry };
  }

  /** Removes an entry; false when there was none. */
  async remove(input: string): Promise<{ removed: boolean; entry: { kind: DenylistKind; value: string } }> {
    const entry = denylistEntry(input);
    const result = await reader(this.#orm)
      .deleteFrom('denylist_entry')
      .where('kind', '=', entry.kind)
      .where('value', '=', entry.value)
      .executeTakeFirst();
    return { removed: result.numDeletedRows > 0n, entry };
  }

  async list(): Promise<DenylistEntryView[]> {
    const rows = await reader(this.#orm)
      .selectFrom('denylist_entry')
      .select(['kind', 'value', 'created_at'])
      .orderBy('kind')
      .orderBy('value')
      .execute();
    return rows.map((row) => ({ kind: row.kind as DenylistKind, value: row.value, created_at: row.created_at.getTime() }));
  }
}
