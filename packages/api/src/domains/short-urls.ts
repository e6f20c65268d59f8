import type { DomainDirectory } from './domain-directory.ts';

/**
 * A link's `domain` and `short_url` (docs/domains.md): on the server's own domain (`domain_id`
 * null) SHORT_DOMAIN's host and origin, as before; on a branded domain its name, with
 * SHORT_DOMAIN's scheme. Names come from the domain directory (a domain's name never changes).
 */
export class ShortUrls {
  readonly #origin: string;
  readonly #scheme: string;
  readonly serverHost: string;
  readonly #directory: DomainDirectory;

  constructor(serverOrigin: string, directory: DomainDirectory) {
    const url = new URL(serverOrigin);
    this.#origin = serverOrigin;
    this.#scheme = url.protocol;
    this.serverHost = url.hostname.toLowerCase();
    this.#directory = directory;
  }

  /** The name a link's domain is shown by. */
  domainOf(domainId: string | null | undefined): string {
    return domainId === null || domainId === undefined ? this.serverHost : (this.#directory.nameOf(domainId) ?? domainId);
  }

  /** `domainId` undefined (a row kept from before domains, such as a tag's stored sums) is the server's own. */
  shortUrl(domainId: string | null | undefined, slug: string): string {
    return domainId === null || domainId === undefined ? `${this.#origin}/${slug}` : `${this.#scheme}//${this.domainOf(domainId)}/${slug}`;
  }

  /**
   * Makes sure every domain of these links is known to this process: one added in another process
   * moments ago may not have been announced here yet. Nothing to wait for in the usual case.
   */
  async ensure(rows: Iterable<{ domain_id: string | null }>): Promise<void> {
    for (const row of rows) {
      if (row.domain_id !== null && this.#directory.nameOf(row.domain_id) === undefined) {
        await this.#directory.reload();
        return;
      }
    }
  }
}
