/** What became of a visit, by its status; `unavailable` is the database being unreachable. */
export const VISIT_OUTCOMES = ['redirected', 'not_found', 'expired', 'rate_limited', 'unavailable', 'other'] as const;
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number];

function outcomeIndex(status: number): number {
  switch (status) {
    case 302:
      return 0;
    case 404:
      return 1;
    case 410:
      return 2;
    case 429:
      return 3;
    case 503:
      return 4;
    default:
      return 5;
  }
}

/**
 * Every short-link visit since start, by outcome and by bot or human, and how the redirect cache
 * answered them: plain numbers bumped on the redirect path (a few nanoseconds), which metrics read
 * at scrape time (metrics/server-metrics.ts). A metrics library's labelled counter hashes its
 * labels on every increment; the cached redirect path cannot afford that (docs/metrics.md).
 */
export class VisitCounts {
  /** `[outcome index * 2 + (bot ? 1 : 0)]`. */
  readonly #visits = new Float64Array(VISIT_OUTCOMES.length * 2);
  /** Visits whose slug the redirect cache knew, and those it had to be read from PostgreSQL for. */
  cacheHits = 0;
  cacheMisses = 0;

  count(status: number, bot: boolean): void {
    this.#visits[outcomeIndex(status) * 2 + (bot ? 1 : 0)]! += 1;
  }

  /** The visits of one outcome and kind of visitor. */
  visits(outcome: VisitOutcome, visitor: 'human' | 'bot'): number {
    return this.#visits[VISIT_OUTCOMES.indexOf(outcome) * 2 + (visitor === 'bot' ? 1 : 0)] ?? 0;
  }
}
