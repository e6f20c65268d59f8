/**
 * Waits for URL checks asked together and gives their answers, or the refusal of the first
 * refused one in the order given: a request with 20 rules waits one check's time, not twenty, and
 * still names the field a check-after-check request would have (its destination before its
 * fallback, `rules[2]` before `rules[5]`). Every check is awaited, so a refusal left unread after
 * an earlier one is no unhandled rejection.
 */
export async function checkedInOrder<T extends readonly unknown[]>(checks: { readonly [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks as readonly Promise<unknown>[]);
  const values: unknown[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    values.push(result.value);
  }
  return values as unknown as T;
}
