import { LIMITS } from '@shortlinks/contract';
import { AppError, validationError } from '../errors.ts';
import { destinationProblem } from './destination-policy.ts';
import { ReputationUnavailable, type UrlReputation } from './reputation/reputation-chain.ts';
import { asciiUrl, mergeUtm, type Utm } from './utm.ts';

/** Checks a destination or expiration URL against the host rules and the reputation service. */
export class DestinationChecker {
  readonly #shortDomainHost: string;
  readonly #reputation: UrlReputation;
  /** Whether a host is one of the server's verified branded domains (refused like the short domain: docs/domains.md). */
  readonly #isBrandedDomain: (host: string) => boolean;

  constructor(shortDomainHost: string, reputation: UrlReputation, isBrandedDomain: (host: string) => boolean = () => false) {
    this.#shortDomainHost = shortDomainHost;
    this.#reputation = reputation;
    this.#isBrandedDomain = isBrandedDomain;
  }

  /** A branded domain's root or not-found redirect as it will be stored, under the destination rules. */
  async domainRedirect(field: 'root_redirect_url' | 'not_found_url', url: string): Promise<string> {
    this.#checkPolicy(field, url);
    const stored = asciiUrl(url);
    if (stored.length > LIMITS.urlChars) throw validationError(field, `${field} must be at most ${LIMITS.urlChars} characters`);
    await this.#checkReputation(field, stored);
    return stored;
  }

  /**
   * The final destination with utm merged in, once it is known to be acceptable. The host rules
   * see the URL as sent: merging re-serialises it, which would hide a URL that browsers and other
   * clients read differently (docs/security.md).
   */
  async finalDestination(field: 'destination_url', url: string, utm: Utm | undefined): Promise<string> {
    return this.otherDestination(field, url, utm);
  }

  /**
   * A smart link's other URLs under the destination's rules (issue #30): a rule's destination
   * (`rules[2].destination_url`, utm merged in as into destination_url) and the preview's image
   * (`preview.image_url`, no utm), each refused under its own field's name.
   */
  async otherDestination(field: string, url: string, utm: Utm | undefined): Promise<string> {
    this.#checkPolicy(field, url);
    const merged = mergeUtm(url, utm);
    if (merged.length > LIMITS.urlChars) {
      throw validationError(field, `${field} with utm parameters must be at most ${LIMITS.urlChars} characters`);
    }
    await this.#checkReputation(field, merged);
    return merged;
  }

  /** The expiration URL as it will be stored, once it is known to be acceptable. */
  async fallback(url: string): Promise<string> {
    this.#checkPolicy('expiration_url', url);
    const stored = asciiUrl(url);
    if (stored.length > LIMITS.urlChars) {
      throw validationError('expiration_url', `expiration_url must be at most ${LIMITS.urlChars} characters`);
    }
    await this.#checkReputation('expiration_url', stored);
    return stored;
  }

  #checkPolicy(field: string, sent: string): void {
    const problem = destinationProblem(sent, this.#shortDomainHost);
    if (problem) throw validationError(field, `${field} ${problem}`);
    const host = new URL(sent).hostname.toLowerCase().replace(/\.+$/, '');
    if (this.#isBrandedDomain(host)) throw validationError(field, `${field} must not point to a short-link domain of this server`);
  }

  /** Asks the reputation sources about the URL as it will be stored. */
  async #checkReputation(field: string, url: string): Promise<void> {
    const verdict = await this.#reputation.check(url).catch((error: unknown) => {
      if (!(error instanceof ReputationUnavailable)) throw error;
      // Failure policy fail-closed (docs/security.md): refused, with a code that says "retry later".
      throw new AppError(
        'REPUTATION_UNAVAILABLE',
        `The URL safety check is unavailable, so ${field} cannot be accepted now; retry later`,
        field,
      );
    });
    if (verdict.flagged) throw validationError(field, `${field} is flagged by the URL safety check (${verdict.reason})`);
  }
}
