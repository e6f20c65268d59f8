/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import './analytics.css';
import type { GroupStats, LinkStats } from '@shortlinks/client';
import { type ReactNode, useMemo, useState } from 'react';
import { BreakdownList } from './BreakdownList.tsx';
import { ChartPanel } from './ChartPanel.tsx';
import { browserTimeZone } from './calendar.ts';
import { countriesNeverKnown } from './country-hint.ts';
import { DIMENSIONS, type Dimension, dimensionValueLabel, formatsFor, offsetChanges } from './format.ts';
import { RangePicker } from './RangePicker.tsx';
import { type RangeChoice, resolveRange, type StatsWindow } from './range.ts';
import { TopLinks } from './TopLinks.tsx';
import { type StatsLoader, useStats } from './useStats.ts';

const DEFAULT_CHOICE: RangeChoice = { kind: 'preset', preset: '30d', interval: 'day' };

export interface AnalyticsOptions {
  /** Called with a top link's id when the reader opens it; without it, top links are not buttons. */
  onOpenLink?(linkId: string): void;
  /** Where the figures are read: `undefined` is the browser's locale. For tests and hosts that pick a language. */
  locale?: string;
  /** The zone of the day buckets and labels; the browser's by default. */
  timeZone?: string;
  /** The clock, for tests. */
  now?(): number;
}

/**
 * What a link's, a tag's and the account's statistics views share: the range picker, the totals
 * and the chart with its table, the breakdowns, the top links (when the answer has them), and
 * the loading, empty and error states.
 */
export function AnalyticsView<T extends LinkStats | GroupStats>({
  label,
  heading,
  load,
  emptyHint,
  onOpenLink,
  locale,
  timeZone: zone,
  now: clock = Date.now,
}: AnalyticsOptions & {
  /** Names the region for assistive technology ("Statistics of Spring launch"). */
  label: string;
  heading: ReactNode;
  load: StatsLoader<T>;
  emptyHint: string;
}) {
  const timeZone = useMemo(() => zone ?? browserTimeZone(), [zone]);
  const [picked, setPicked] = useState<{ choice: RangeChoice; window: StatsWindow; now: number }>(() => {
    const now = clock();
    return { choice: DEFAULT_CHOICE, now, window: windowOf(DEFAULT_CHOICE, now, timeZone) };
  });
  const { stats, loading, error, unknownZone, retry } = useStats(load, picked.window);
  const formats = useMemo(
    () =>
      stats
        ? formatsFor({
            locale,
            timeZone: stats.tz,
            interval: stats.interval,
            showZone:
              stats.interval === 'hour' &&
              offsetChanges(
                stats.series.map((bucket) => bucket.start),
                stats.tz,
              ),
          })
        : undefined,
    [stats, locale],
  );

  const choose = (choice: RangeChoice) => {
    const now = clock();
    setPicked({ choice, now, window: windowOf(choice, now, timeZone) });
  };

  return (
    <section className="analytics" aria-label={label} aria-busy={loading}>
      <div className="analytics-heading">{heading}</div>
      <RangePicker choice={picked.choice} window={picked.window} now={picked.now} onChange={choose} />
      {error ? (
        <div className="banner error analytics-error" role="alert">
          <span>{error}</span>
          <button type="button" className="button small" onClick={retry}>
            Try again
          </button>
        </div>
      ) : null}
      {!stats && loading ? (
        <div className="analytics-loading" role="status">
          <div className="spinner" /> Loading statistics…
        </div>
      ) : null}
      {stats && formats ? (
        <div className={loading ? 'analytics-body stale' : 'analytics-body'}>
          {loading ? (
            <span className="visually-hidden" role="status">
              Updating…
            </span>
          ) : null}
          {unknownZone ? (
            <div className="banner info">
              Shown in UTC: the server does not know the time zone {unknownZone}, so days start at midnight UTC.
            </div>
          ) : null}
          <ChartPanel stats={stats} formats={formats} />
          {stats.totals.clicks === 0 ? (
            <div className="empty analytics-empty">{emptyHint}</div>
          ) : (
            <>
              <div className="analytics-grid">
                {'top_links' in stats ? <TopLinks links={stats.top_links} formats={formats} onOpenLink={onOpenLink} /> : null}
                {DIMENSIONS.map((dimension) => (
                  <BreakdownList
                    key={dimension.key}
                    title={dimension.title}
                    testId={`breakdown-${dimension.key}`}
                    count={formats.count}
                    note={noteOf(dimension.key, stats)}
                    entries={stats.breakdowns[dimension.key].map((entry) => {
                      const country = 'country' in entry ? entry.country : undefined;
                      return {
                        // Two cities of one name are told apart by their country.
                        key: `${country ?? ''}\t${entry.value ?? ''}`,
                        label: dimensionValueLabel(dimension.key, entry.value, formats, country),
                        clicks: entry.clicks,
                      };
                    })}
                  />
                ))}
              </div>
              <BreakdownNote stats={stats} locale={locale} />
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}

/** What is said under a breakdown: how to get countries where none is known, and the IP database's credit. */
function noteOf(dimension: Dimension, stats: LinkStats): ReactNode {
  if (dimension === 'countries' && countriesNeverKnown(stats.breakdowns.countries)) return <CountriesHint />;
  if (dimension === 'cities' && stats.breakdowns.cities.some((entry) => entry.value !== null)) return <IpDatabaseCredit />;
  return undefined;
}

/** Why no country is known, and how a server's operator gets them (docs/statistics.md: countries and cities). */
function CountriesHint() {
  return (
    <span data-testid="countries-hint">
      No visitor's country is known: their addresses are private, or the server sees its proxy's. Behind a proxy, set{' '}
      <code>TRUST_PROXY</code>, or <code>CLICK_COUNTRY_HEADER</code> to the header it sets (<code>CF-IPCountry</code> behind Cloudflare).
      See <code>docs/statistics.md</code>.
    </span>
  );
}

/** DB-IP's licence (CC BY 4.0) asks pages showing its results to credit it (docs/statistics.md). */
function IpDatabaseCredit() {
  return (
    <span data-testid="ip-database-credit">
      <a href="https://db-ip.com" target="_blank" rel="noreferrer">
        IP Geolocation by DB-IP
      </a>
    </span>
  );
}

/** A choice's window; a custom choice the picker let through is always valid, but falls back to the default if not. */
function windowOf(choice: RangeChoice, now: number, timeZone: string): StatsWindow {
  const resolved = resolveRange(choice, now, timeZone);
  if (resolved.ok) return resolved.window;
  const fallback = resolveRange(DEFAULT_CHOICE, now, timeZone);
  if (!fallback.ok) throw new Error('the default range is always valid');
  return fallback.window;
}

/**
 * Breakdowns and top links count whole UTC days (docs/statistics.md): where that is not exactly the
 * chart's range, the reader is told which days they cover.
 */
function BreakdownNote({ stats, locale }: { stats: LinkStats; locale: string | undefined }) {
  const { breakdowns } = stats;
  if (breakdowns.start === stats.start && breakdowns.end === stats.end) return null;
  const utc = formatsFor({ locale, timeZone: 'UTC', interval: 'day' });
  return (
    <p className="muted analytics-note">
      The breakdowns{'top_links' in stats ? ' and top links' : ''} count whole days in UTC:{' '}
      {utc.range(breakdowns.start, breakdowns.end, 'day')}, so they may include clicks just outside the chart’s range.
    </p>
  );
}
