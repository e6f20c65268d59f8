import { Resolver } from 'node:dns/promises';

/** What a look-up of a TXT record found. */
export type TxtAnswer =
  /** The name answered with these values (each record's chunks joined). */
  | { kind: 'found'; values: string[] }
  /** The name does not exist or holds no TXT record: a definite "not there". */
  | { kind: 'none' }
  /** The look-up itself failed (timeout, refused, server failure): nothing is known. */
  | { kind: 'failed'; reason: string };

/** How long one look-up waits for a server, and how many times it asks. */
const TIMEOUT_MS = 3000;
const TRIES = 2;

/**
 * TXT look-ups for domain verification, with the system's resolvers or the servers of
 * `DNS_SERVERS` (`host:port`, docs/domains.md), so an operator can choose one and a test can run
 * its own DNS server.
 */
export class TxtLookup {
  readonly #resolver: Resolver;

  constructor(servers: readonly string[] = []) {
    this.#resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
    if (servers.length > 0) this.#resolver.setServers([...servers]);
  }

  async lookup(name: string): Promise<TxtAnswer> {
    try {
      const records = await this.#resolver.resolveTxt(name);
      return { kind: 'found', values: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { kind: 'none' };
      return { kind: 'failed', reason: code ?? (error as Error).message };
    }
  }
}
