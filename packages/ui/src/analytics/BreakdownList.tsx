/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { type ReactNode, useId } from 'react';

export interface BarEntry {
  key: string;
  label: ReactNode;
  clicks: number;
}

/**
 * A ranked list as horizontal bars in plain HTML: each row says its name and its number in text
 * (the bar behind it is decoration, as long as the row's share of the largest), so it reads the
 * same to everyone.
 */
export function BreakdownList({
  title,
  entries,
  count,
  empty = 'No clicks.',
  note,
  testId,
}: {
  title: string;
  entries: BarEntry[];
  count(value: number): string;
  empty?: string;
  /** Said under the bars: why they look as they do, when that needs saying. */
  note?: ReactNode;
  testId?: string;
}) {
  const headingId = useId();
  const largest = Math.max(1, ...entries.map((entry) => entry.clicks));
  return (
    <section className="analytics-card" aria-labelledby={headingId} data-testid={testId}>
      <div className="analytics-card-head">
        <h3 id={headingId}>{title}</h3>
        <span className="muted" aria-hidden="true">
          Clicks
        </span>
      </div>
      {entries.length === 0 ? (
        <p className="muted analytics-none">{empty}</p>
      ) : (
        <ol className="bar-list">
          {entries.map((entry) => (
            <li key={entry.key} className="bar-row">
              <span className="bar" style={{ width: `${(entry.clicks / largest) * 100}%` }} aria-hidden="true" />
              <span className="bar-label">{entry.label}</span>
              <span className="bar-value">
                {count(entry.clicks)}
                <span className="visually-hidden">{entry.clicks === 1 ? ' click' : ' clicks'}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
      {note ? <p className="muted analytics-card-note">{note}</p> : null}
    </section>
  );
}
