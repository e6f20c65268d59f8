/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { LinkStats } from '@shortlinks/client';
import { useId, useState } from 'react';
import { ClicksChart } from './ClicksChart.tsx';
import type { Formats } from './format.ts';
import { SeriesTable } from './SeriesTable.tsx';

/**
 * The totals and the series over time: a chart, and the same figures as a table that assistive
 * technology always reads and anyone can show instead ("Show as table").
 */
export function ChartPanel({ stats, formats }: { stats: LinkStats; formats: Formats }) {
  const [hovered, setHovered] = useState<number | null>(null);
  const [asTable, setAsTable] = useState(false);
  const tableId = useId();
  const bucket = hovered === null ? undefined : stats.series[hovered];
  const unit = stats.interval === 'day' ? 'by day' : 'by hour';
  const range = formats.range(stats.start, stats.end, stats.interval);
  return (
    <section className="analytics-card chart-card" aria-label="Clicks over time">
      <div className="chart-head">
        <dl className="totals">
          <div className="total">
            <dt>
              <span className="dot dot-clicks" aria-hidden="true" />
              Clicks
            </dt>
            <dd data-testid="total-clicks">{formats.count(stats.totals.clicks)}</dd>
          </div>
          <div className="total">
            <dt>
              <span className="dot dot-visitors" aria-hidden="true" />
              Unique visitors
            </dt>
            <dd data-testid="total-visitors">{formats.count(stats.totals.unique_visitors)}</dd>
          </div>
        </dl>
        <button type="button" className="button small" aria-controls={tableId} onClick={() => setAsTable(!asTable)}>
          {asTable ? 'Show as chart' : 'Show as table'}
        </button>
      </div>
      <p className="chart-readout muted" data-testid="chart-readout">
        {bucket ? (
          <>
            {formats.bucket(bucket.start)}: <strong>{formats.count(bucket.clicks)}</strong> {bucket.clicks === 1 ? 'click' : 'clicks'},{' '}
            <strong>{formats.count(bucket.unique_visitors)}</strong> unique {bucket.unique_visitors === 1 ? 'visitor' : 'visitors'}
          </>
        ) : (
          `${range} · ${unit} · ${stats.tz.replaceAll('_', ' ')}`
        )}
      </p>
      <div hidden={asTable}>
        <ClicksChart stats={stats} formats={formats} onHover={setHovered} />
      </div>
      <div id={tableId} className={asTable ? 'table-scroll' : 'visually-hidden'}>
        <SeriesTable stats={stats} formats={formats} caption={`Clicks and unique visitors ${unit}, ${range}`} />
      </div>
      <p className="muted analytics-note">
        Unique visitors: each visitor counts once per link and day (UTC days), so over several days or links they add up.
      </p>
    </section>
  );
}
