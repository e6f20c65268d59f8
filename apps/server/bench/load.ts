import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Failed requests, timeouts (10 s) included. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /**
   * Share of the round the servers' thread (this process's main thread) was busy, 0 to 1. Near 1,
   * the server under test was the limit; well below 1, the load generator was. Measured for HTTP
   * targets only.
   */
  serverBusy?: number;
}

/** A request other than a GET: every request of the run sends this method and body. */
export interface RequestBody {
  method: 'POST';
  body: string;
}

/**
 * Drives one server with autocannon (load generated in a worker thread, off the servers' event
 * loop). `paths`, when given, are requested in turn by every connection; `send`, when given, is the
 * method and body of every request.
 */
export async function drive(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  paths?: (string | { path: string; headers: Record<string, string> })[],
  send?: RequestBody,
): Promise<LoadResult> {
  const before = performance.eventLoopUtilization();
  const result = await autocannon({
    url,
    headers,
    connections: 50,
    duration: seconds,
    workers: 1,
    ...(paths
      ? {
          requests: paths.map((path) =>
            typeof path === 'string'
              ? { method: 'GET' as const, path }
              : { method: 'GET' as const, path: path.path, headers: { ...headers, ...path.headers } },
          ),
        }
      : {}),
    ...(send ? { method: send.method, body: send.body } : {}),
  });
  const busy = performance.eventLoopUtilization(before);
  return {
    serverBusy: busy.utilization,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
