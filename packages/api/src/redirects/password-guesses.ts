import { LRUCache } from 'lru-cache';

/**
 * The guessing limits of password-protected links (issue #30, docs/redirects.md): wrong passwords
 * are counted per link and visitor, and per link across all visitors, in a fixed window.
 * A visitor past {@link PER_VISITOR} wrong answers in the window, or anyone once the link is past
 * {@link PER_LINK}, is refused (429) before the password is even checked, right or wrong: a limit
 * that let the right answer through would still tell a guesser when it found it.
 *
 * Counted in this process's memory, bounded (least recently used forgotten first): with several
 * instances each counts its own share, so the limits across them are at most that many times these.
 */
export const PASSWORD_GUESS_WINDOW_MS = 10 * 60_000;
/** Wrong passwords one visitor (address, IPv6 by /64) may send one link per window. */
export const PER_VISITOR = 10;
/**
 * Wrong passwords one link takes per window from everyone together, against guessing spread over
 * many addresses: 100 per 10 minutes is 14,400 a day, against the 81 million passwords of even
 * 4 printable ASCII characters. Past it, visitors who have not unlocked the link wait for the
 * window to end; those holding its cookie pass.
 */
export const PER_LINK = 100;

interface Window {
  startedAt: number;
  wrong: number;
}

export class PasswordGuesses {
  readonly #byVisitor = new LRUCache<string, Window>({ max: 100_000 });
  readonly #byLink = new LRUCache<string, Window>({ max: 50_000 });
  readonly #perVisitor: number;
  readonly #perLink: number;
  readonly #windowMs: number;

  constructor({ perVisitor = PER_VISITOR, perLink = PER_LINK, windowMs = PASSWORD_GUESS_WINDOW_MS } = {}) {
    this.#perVisitor = perVisitor;
    this.#perLink = perLink;
    this.#windowMs = windowMs;
  }

  /** Whole seconds until `visitor` may try `linkId` again; undefined when it may now. */
  refusal(linkId: string, visitor: string, now: number): number | undefined {
    const own = this.#current(this.#byVisitor, `${linkId} ${visitor}`, now);
    const all = this.#current(this.#byLink, linkId, now);
    const waits = [own, all]
      .map((window, index) => (window && window.wrong >= (index === 0 ? this.#perVisitor : this.#perLink) ? window : undefined))
      .filter((window) => window !== undefined)
      .map((window) => Math.max(1, Math.ceil((window.startedAt + this.#windowMs - now) / 1000)));
    return waits.length === 0 ? undefined : Math.max(...waits);
  }

  /** Counts a wrong password. */
  wrong(linkId: string, visitor: string, now: number): void {
    this.#count(this.#byVisitor, `${linkId} ${visitor}`, now);
    this.#count(this.#byLink, linkId, now);
  }

  #current(windows: LRUCache<string, Window>, key: string, now: number): Window | undefined {
    const window = windows.get(key);
    return window && now - window.startedAt < this.#windowMs ? window : undefined;
  }

  #count(windows: LRUCache<string, Window>, key: string, now: number): void {
    const window = this.#current(windows, key, now);
    if (window) window.wrong++;
    else windows.set(key, { startedAt: now, wrong: 1 });
  }
}
