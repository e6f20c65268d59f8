/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { LinkStats } from '@shortlinks/client';
import type { Formats } from './format.ts';

/**
 * The chart's figures as a table, one row per bucket: the chart's accessible alternative, and
 * what a reader who wants exact numbers reads.
 */
export function SeriesTable({ stats, formats, caption }: { stats: LinkStats; formats: Formats; caption: string }) {
  const unit = stats.interval === 'day' ? 'Day' : 'Hour';
  return (
    <table className="analytics-table" data-testid="series-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{unit}</th>
          <th scope="col">Clicks</th>
          <th scope="col">Unique visitors</th>
        </tr>
      </thead>
      <tbody>
        {stats.series.map((bucket) => (
          <tr key={bucket.start}>
            <th scope="row">{formats.bucket(bucket.start)}</th>
            <td>{formats.count(bucket.clicks)}</td>
            <td>{formats.count(bucket.unique_visitors)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{formats.count(stats.totals.clicks)}</td>
          <td>{formats.count(stats.totals.unique_visitors)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
