/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import { formatCount } from './counts.ts';

/** "12 of 1,000 links" with a bar, for the plan's link and tag limits; "12 links · no limit" without one. */
export function PlanUsage({ label, used, limit }: { label: string; used: number; limit: number | null }) {
  const share = limit === null || limit === 0 ? 0 : Math.min(1, used / limit);
  return (
    <div className="usage" data-testid={`usage-${label}`}>
      <div className="usage-text">
        <strong>{formatCount(used)}</strong> {limit === null ? `${label} · no limit` : `of ${formatCount(limit)} ${label}`}
      </div>
      {limit === null ? null : (
        <div className="usage-bar" aria-hidden="true">
          <div style={{ width: `${share * 100}%`, background: share >= 0.9 ? 'var(--danger)' : 'var(--brand)' }} />
        </div>
      )}
    </div>
  );
}
