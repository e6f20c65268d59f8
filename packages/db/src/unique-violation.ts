/**
 * The name of the unique index a failed statement violated, or undefined when the error
 * is not a unique violation. Services turn these into the spec's 409 codes, so a race
 * lost to a concurrent request never surfaces as a 500.
 */
export function violatedUniqueIndex(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; sqlState?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === '23505' || candidate.sqlState === '23505') {
      if (typeof candidate.constraint === 'string') return candidate.constraint;
      const match = typeof candidate.message === 'string' ? /unique constraint "([^"]+)"/.exec(candidate.message) : null;
      return match?.[1] ?? 'unknown';
    }
    current = candidate.cause;
  }
  return undefined;
}
