import type { DomainList } from '@shortlinks/client';

/** The domains a new link can be put on, and the one it goes on unless another is picked. */
export interface DomainChoices {
  /** The server's own domain first, then the verified (serving) branded domains by name. */
  names: string[];
  /** The workspace's default domain while it is verified, else the server's (what omitting `domain` gives). */
  preferred: string;
}

/**
 * What the domain picker offers (docs/domains.md): nothing when the workspace serves no branded
 * domain (the picker is hidden and links go where they always went); else the server's domain and
 * every verified one. Pending and stopped domains are left out: the API refuses links on them.
 */
export function domainChoicesOf(list: DomainList): DomainChoices | undefined {
  const serving = list.domains.filter((domain) => domain.verified);
  if (serving.length === 0) return undefined;
  const names = serving.map((domain) => domain.name).sort((a, b) => a.localeCompare(b));
  return {
    names: [list.server_domain, ...names],
    preferred: serving.find((domain) => domain.is_default)?.name ?? list.server_domain,
  };
}
