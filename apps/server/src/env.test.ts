import { describe, expect, test } from 'vitest';
import { readConfig } from './env.ts';

describe('readConfig: reputation, rate limit and proxy settings', () => {
  test('defaults: no remote provider, allow when down, 1500 ms timeout, 5 minutes of clean cache, 1200 redirects a minute', () => {
    const { config } = readConfig({});
    expect(config?.reputation).toEqual({
      provider: 'none',
      apiKey: undefined,
      baseUrl: undefined,
      timeoutMs: 1500,
      cleanCacheMs: 300_000,
      policy: 'allow',
    });
    expect(config?.redirectRateLimit).toBe(1200);
    expect(config?.trustProxy).toBeUndefined();
  });

  test('a provider with its key, base URL, timeout, cache and fail-closed policy', () => {
    const { config, problems } = readConfig({
      REPUTATION_PROVIDER: 'web-risk',
      REPUTATION_API_KEY: 'k',
      REPUTATION_BASE_URL: 'http://127.0.0.1:9999',
      REPUTATION_TIMEOUT_MS: '200',
      REPUTATION_CACHE_SECONDS: '0',
      REPUTATION_FAILURE_POLICY: 'fail-closed',
    });
    expect(problems).toEqual([]);
    expect(config?.reputation).toEqual({
      provider: 'web-risk',
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9999',
      timeoutMs: 200,
      cleanCacheMs: 0,
      policy: 'fail-closed',
    });
  });

  test('each problem is one line naming its variable: a provider without a key, an unknown policy, a base URL with a path', () => {
    const { config, problems } = readConfig({
      REPUTATION_PROVIDER: 'safe-browsing',
      REPUTATION_FAILURE_POLICY: 'closed',
      REPUTATION_BASE_URL: 'https://example.com/v4',
    });
    expect(config).toBeUndefined();
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/REPUTATION_FAILURE_POLICY/);
    expect(problems.join('\n')).toMatch(/REPUTATION_BASE_URL/);
    const missingKey = readConfig({ REPUTATION_PROVIDER: 'safe-browsing' });
    expect(missingKey.problems).toEqual([
      expect.stringMatching(/^REPUTATION_API_KEY: is required when REPUTATION_PROVIDER is safe-browsing/),
    ]);
  });

  test.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.1, 10.0.0.2', ['10.0.0.1', '10.0.0.2']],
  ])('TRUST_PROXY=%s → %o', (value, expected) => {
    expect(readConfig({ TRUST_PROXY: value }).config?.trustProxy).toEqual(expected);
  });
});

describe('readConfig: request timeouts and the connection cap', () => {
  test('defaults: 30 s for a request to arrive, 60 s idle, no cap on connections', () => {
    expect(readConfig({}).config?.connectionLimits).toEqual({ requestMs: 30_000, idleMs: 60_000, maxConnections: 0 });
  });

  test('REPUTATION_TIMEOUT_MS is accepted while 13 rounds of it (a bulk call’s URL checks) fit the idle timeout', () => {
    expect(readConfig({ REPUTATION_TIMEOUT_MS: '4600' }).problems).toEqual([]);
    expect(readConfig({ REPUTATION_TIMEOUT_MS: '30000', CONNECTION_IDLE_TIMEOUT_MS: '390001' }).problems).toEqual([]);
  });

  test('each can be set', () => {
    const { config, problems } = readConfig({ REQUEST_TIMEOUT_MS: '10000', CONNECTION_IDLE_TIMEOUT_MS: '120000', MAX_CONNECTIONS: '5000' });
    expect(problems).toEqual([]);
    expect(config?.connectionLimits).toEqual({ requestMs: 10_000, idleMs: 120_000, maxConnections: 5000 });
  });

  test.each([
    [{ REQUEST_TIMEOUT_MS: '0' }, /^REQUEST_TIMEOUT_MS: /],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /^REQUEST_TIMEOUT_MS: /],
    [{ MAX_CONNECTIONS: '-1' }, /^MAX_CONNECTIONS: /],
    [{ REQUEST_TIMEOUT_MS: '90000' }, /^CONNECTION_IDLE_TIMEOUT_MS: must be longer than REQUEST_TIMEOUT_MS \(90000\)$/],
    [
      { REPUTATION_TIMEOUT_MS: '20000', CONNECTION_IDLE_TIMEOUT_MS: '15000', REQUEST_TIMEOUT_MS: '5000' },
      /^CONNECTION_IDLE_TIMEOUT_MS: must be longer than 13 × REPUTATION_TIMEOUT_MS \(260000\), the longest a bulk call waits on its URL checks$/,
    ],
    // One check fits (5 s < 60 s), but 100 items' checks, 16 at a time, need 13 rounds of 5 s.
    [
      { REPUTATION_TIMEOUT_MS: '5000' },
      /^CONNECTION_IDLE_TIMEOUT_MS: must be longer than 13 × REPUTATION_TIMEOUT_MS \(65000\), the longest a bulk call waits on its URL checks$/,
    ],
  ])('%o is refused with one line naming the variable', (env, problem) => {
    const { config, problems } = readConfig(env);
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe('readConfig: API rate limits per plan', () => {
  test('default to the built-in plan limits', () => {
    expect(readConfig({}).config?.apiRateLimits).toEqual({ starter: 120, trial: 120, team: 600, unlimited: 3000 });
  });

  test('each plan can be set, 0 meaning no limit; an unset one keeps its default', () => {
    const { config } = readConfig({ API_RATE_LIMIT_STARTER: '1000', API_RATE_LIMIT_UNLIMITED: '0' });
    expect(config?.apiRateLimits).toEqual({ starter: 1000, trial: 120, team: 600, unlimited: 0 });
  });

  test.each(['-1', '1.5', 'lots'])('API_RATE_LIMIT_TEAM=%s is refused with one line naming it', (value) => {
    const { config, problems } = readConfig({ API_RATE_LIMIT_TEAM: value });
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/^API_RATE_LIMIT_TEAM: /)]);
  });
});

describe('readConfig: database outages', () => {
  test('defaults: links seen recently keep redirecting for an hour, and 250,000 click events are kept unwritten at most', () => {
    const { config } = readConfig({});
    expect(config?.redirectStaleIfErrorMs).toBe(3_600_000);
    expect(config?.clickBufferMax).toBe(250_000);
  });

  test('both can be set; 0 seconds serves nothing kept from before an outage', () => {
    const { config } = readConfig({ REDIRECT_STALE_IF_ERROR_SECONDS: '0', CLICK_BUFFER_MAX: '5000' });
    expect(config?.redirectStaleIfErrorMs).toBe(0);
    expect(config?.clickBufferMax).toBe(5000);
  });

  test('out of range or not a number: one line naming the variable', () => {
    const { config, problems } = readConfig({ REDIRECT_STALE_IF_ERROR_SECONDS: '-1', CLICK_BUFFER_MAX: 'lots' });
    expect(config).toBeUndefined();
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toMatch(/REDIRECT_STALE_IF_ERROR_SECONDS/);
    expect(problems.join('\n')).toMatch(/CLICK_BUFFER_MAX/);
  });
});

describe('readConfig: REDIS_URL', () => {
  test('unset by default: each process counts its own rate limits', () => {
    expect(readConfig({}).config?.redisUrl).toBeUndefined();
  });

  test.each(['redis://127.0.0.1:6379', 'rediss://:secret@cache.internal:6380/2', 'redis://valkey'])('%s is taken as it is', (url) => {
    expect(readConfig({ REDIS_URL: url }).config?.redisUrl).toBe(url);
  });

  test.each(['127.0.0.1:6379', 'http://redis:6379', 'redis://'])('REDIS_URL=%s is refused with one line naming it', (value) => {
    const { config, problems } = readConfig({ REDIS_URL: value });
    expect(config).toBeUndefined();
    expect(problems).toEqual(['REDIS_URL: must be a redis:// or rediss:// URL']);
  });
});

describe('readConfig: metrics', () => {
  test('unset (or blank): no metrics listener', () => {
    expect(readConfig({}).config?.metricsPort).toBeUndefined();
    expect(readConfig({ METRICS_PORT: '' }).config?.metricsPort).toBeUndefined();
  });

  test('a port, or 0 for any free one', () => {
    expect(readConfig({ METRICS_PORT: '9464' }).config?.metricsPort).toBe(9464);
    expect(readConfig({ METRICS_PORT: '0' }).config?.metricsPort).toBe(0);
  });

  test.each([
    [{ METRICS_PORT: '-1' }, /^METRICS_PORT: must be a port number \(0 to 65535\)$/],
    [{ METRICS_PORT: '65536' }, /^METRICS_PORT: must be a port number \(0 to 65535\)$/],
    [{ METRICS_PORT: '94.64' }, /^METRICS_PORT: must be a port number \(0 to 65535\)$/],
    [{ METRICS_PORT: 'prometheus' }, /^METRICS_PORT: /],
    [{ METRICS_PORT: '8080', PORT: '8080' }, /^METRICS_PORT: must differ from PORT \(8080\)$/],
  ])('%o is refused with one line naming the variable', (env, problem) => {
    const { config, problems } = readConfig(env);
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe('readConfig: exports', () => {
  test('defaults: 3 exports per account at once, ended below 64 KiB in 30 s', () => {
    expect(readConfig({}).config?.exportLimits).toEqual({ perAccount: 3, slowBytes: 64 * 1024, slowMs: 30_000 });
  });

  test('each can be set', () => {
    const { config } = readConfig({ EXPORTS_PER_ACCOUNT: '1', EXPORT_SLOW_READER_KIB: '16', EXPORT_SLOW_READER_SECONDS: '120' });
    expect(config?.exportLimits).toEqual({ perAccount: 1, slowBytes: 16 * 1024, slowMs: 120_000 });
  });

  test.each([
    [{ EXPORTS_PER_ACCOUNT: '0' }, /^EXPORTS_PER_ACCOUNT: must be a whole number of exports, at least 1$/],
    [{ EXPORT_SLOW_READER_KIB: '0.5' }, /^EXPORT_SLOW_READER_KIB: /],
    [{ EXPORT_SLOW_READER_SECONDS: '7200' }, /^EXPORT_SLOW_READER_SECONDS: must be a whole number of seconds from 1 to 3600$/],
  ])('%o is refused with one line naming the variable', (env, problem) => {
    const { config, problems } = readConfig(env);
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(problem)]);
  });
});

describe('readConfig: the audit log', () => {
  test('AUDIT_RETENTION_DAYS: 365 by default, any whole number of days from 1', () => {
    expect(readConfig({}).config?.auditRetentionDays).toBe(365);
    expect(readConfig({ AUDIT_RETENTION_DAYS: '1' }).config?.auditRetentionDays).toBe(1);
    expect(readConfig({ AUDIT_RETENTION_DAYS: '3650' }).config?.auditRetentionDays).toBe(3650);
  });

  test.each(['0', '-5', '1.5', 'a year', '36501'])('AUDIT_RETENTION_DAYS=%s is refused with one line naming it', (days) => {
    const { config, problems } = readConfig({ AUDIT_RETENTION_DAYS: days });
    expect(config).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/^AUDIT_RETENTION_DAYS: must be a whole number of days from 1 to 36500$/)]);
  });
});
