/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { formatCount, nounFor } from './counts.ts';

/**
 * "12 of 1,000 links" with a bar, for the plan's link and tag limits; "12 links · no limit" without one.
 * The noun agrees with the number beside it: "1 link · no limit", "0 of 1 link", "1 of 1,000 links".
 */
export function PlanUsage({
  label,
  one = label.replace(/s$/, ''),
  used,
  limit,
}: {
  /** The plural noun, also the test id: "links". */
  label: string;
  /** The noun for exactly one, when it is not `label` without its final "s". */
  one?: string;
  used: number;
  limit: number | null;
}) {
  const share = limit === null || limit === 0 ? 0 : Math.min(1, used / limit);
  return (
    <div className="usage" data-testid={`usage-${label}`}>
      <div className="usage-text">
        <strong>{formatCount(used)}</strong>{' '}
        {limit === null ? `${nounFor(used, one, label)} · no limit` : `of ${formatCount(limit)} ${nounFor(limit, one, label)}`}
      </div>
      {limit === null ? null : (
        <div className="usage-bar" aria-hidden="true">
          <div style={{ width: `${share * 100}%`, background: share >= 0.9 ? 'var(--danger)' : 'var(--brand)' }} />
        </div>
      )}
    </div>
  );
}
