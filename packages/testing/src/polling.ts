/**
 * Polls `holds` until it is true; the milliseconds that took, counted from `since`
 * (`performance.now()` when the change being waited for was made), or Infinity after `giveUpMs`.
 * For the bounds the tests assert on how soon every process sees a change.
 */
export async function msUntil(holds: () => Promise<boolean>, since: number, giveUpMs = 5_000): Promise<number> {
  while (!(await holds())) {
    if (performance.now() - since > giveUpMs) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - since;
}

/** A desktop browser's User-Agent: its visits count as clicks (a bot's, or none, would not). */
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
