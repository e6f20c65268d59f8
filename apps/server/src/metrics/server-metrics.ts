import type { Services } from '@shortlinks/api/services';
import { type Orm, poolErrorsOf } from '@shortlinks/db';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { VISIT_OUTCOMES, type VisitCounts } from '../redirects/visit-counts.ts';

/** What the metrics read their numbers from. */
export interface MetricSources {
  services: Services;
  orm: Orm;
  /** Every short-link visit, counted on both redirect paths (redirects/visit-log.ts). */
  visits: VisitCounts;
}

/** One server's metrics: its own registry, and what the request log tells it. */
export interface ServerMetrics {
  registry: Registry;
  /** One Fastify request other than a visit (visits are in `shortlinks_redirects_total`). */
  requestCompleted(route: string, method: string, status: number, seconds: number): void;
}

/** Seconds: a cached API read takes well under a millisecond, a bulk create or a slow reputation service seconds. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REMOTE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels<Name extends string> = Partial<Record<Name, string>>;

/**
 * The server's metrics, in a registry of its own (tests run several servers in one process, and
 * a name registers once per registry). Numbers the redirect path and the click recorder keep as
 * plain fields are copied in when Prometheus scrapes (`collect`): nothing on the redirect path
 * calls prom-client. API requests, click flushes and reputation checks are rare enough to be
 * observed as they happen. Every name and label is in docs/metrics.md.
 */
export async function createServerMetrics({ services, orm, visits }: MetricSources): Promise<ServerMetrics> {
  const registry = new Registry();
  const registers = [registry];
  // Process metrics (CPU, memory, heap, event loop lag, GC): once per registry, as each call installs its own monitors.
  collectDefaultMetrics({ register: registry });

  /** A counter whose values live elsewhere as plain numbers, read when scraped. */
  function countedElsewhere<Name extends string>(
    name: string,
    help: string,
    labelNames: readonly Name[],
    read: () => Array<[Labels<Name>, number]>,
  ): void {
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels, value);
      },
    });
  }

  const http = new Histogram({
    name: 'shortlinks_http_request_duration_seconds',
    help: 'Requests answered through Fastify (the API, tRPC, docs, health; not short-link visits), by route pattern, method and status',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });

  countedElsewhere('shortlinks_redirects_total', 'Short-link visits by outcome, and by bot or human', ['outcome', 'visitor'], () =>
    VISIT_OUTCOMES.flatMap((outcome) =>
      (['human', 'bot'] as const).map((visitor): [Labels<'outcome' | 'visitor'>, number] => [
        { outcome, visitor },
        visits.visits(outcome, visitor),
      ]),
    ),
  );

  const cache = services.redirects.cache;
  countedElsewhere('shortlinks_redirect_cache_hits_total', 'Visits whose slug the redirect cache knew', [], () => [[{}, visits.cacheHits]]);
  countedElsewhere('shortlinks_redirect_cache_misses_total', 'Visits whose slug was read from PostgreSQL', [], () => [
    [{}, visits.cacheMisses],
  ]);
  countedElsewhere('shortlinks_redirect_cache_invalidations_total', 'Cached slugs forgotten because their link changed', [], () => [
    [{}, cache.invalidated],
  ]);
  countedElsewhere(
    'shortlinks_redirect_cache_resets_total',
    'Times the redirect cache forgot everything (the change listener reconnected or went away)',
    [],
    () => [[{}, cache.resets]],
  );
  new Gauge({
    name: 'shortlinks_redirect_cache_entries',
    help: 'Slugs in the redirect cache (known links and known unknown slugs)',
    registers,
    collect() {
      this.set(cache.size);
    },
  });

  const clicks = services.clicks;
  countedElsewhere('shortlinks_clicks_buffered_total', 'Clicks handed to the click buffer', [], () => [[{}, clicks.counts.recorded]]);
  countedElsewhere('shortlinks_clicks_flushed_total', 'Clicks written to PostgreSQL', [], () => [[{}, clicks.counts.written]]);
  countedElsewhere('shortlinks_clicks_dropped_total', 'Clicks given up on, by reason', ['reason'], () => {
    const dropped = clicks.dropped;
    return [
      [{ reason: 'buffer_full' }, dropped.overflowClicks],
      [{ reason: 'refused' }, dropped.refusedClicks],
    ];
  });
  new Gauge({
    name: 'shortlinks_clicks_pending',
    help: 'Clicks buffered and not written yet',
    registers,
    collect() {
      this.set(clicks.pending);
    },
  });
  const flushes = new Histogram({
    name: 'shortlinks_click_flush_duration_seconds',
    help: 'Writes of buffered clicks to PostgreSQL, by result',
    labelNames: ['result'] as const,
    buckets: REMOTE_BUCKETS,
    registers,
  });
  clicks.observeFlushes((seconds, failed) => flushes.observe({ result: failed ? 'failed' : 'written' }, seconds));

  const pool = (await orm.em.fork().getConnection().getNativeClient()) as pg.Pool;
  new Gauge({
    name: 'shortlinks_db_pool_connections',
    help: 'Connections of the PostgreSQL pool, by state',
    labelNames: ['state'] as const,
    registers,
    collect() {
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'shortlinks_db_pool_max_connections',
    help: 'Connections the PostgreSQL pool may open',
    registers,
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: 'shortlinks_db_pool_waiting',
    help: 'Queries waiting for a free connection of the pool',
    registers,
    collect() {
      this.set(pool.waitingCount);
    },
  });
  countedElsewhere(
    'shortlinks_db_errors_total',
    'Database failures: statements that failed, connections that could not be had',
    ['kind'],
    () => {
      const errors = poolErrorsOf(pool) ?? { query: 0, connect: 0 };
      return [
        [{ kind: 'query' }, errors.query],
        [{ kind: 'connect' }, errors.connect],
      ];
    },
  );

  const checks = new Histogram({
    name: 'shortlinks_reputation_check_duration_seconds',
    help: 'URL reputation checks of destinations, by provider and result',
    labelNames: ['provider', 'result'] as const,
    buckets: REMOTE_BUCKETS,
    registers,
  });
  services.reputation.observeChecks((provider, result, seconds) => checks.observe({ provider, result }, seconds));

  return {
    registry,
    requestCompleted(route, method, status, seconds) {
      http.observe({ route, method, status_code: String(status) }, seconds);
    },
  };
}
