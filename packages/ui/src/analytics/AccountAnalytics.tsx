/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { StatsQuery } from '@shortlinks/client';
import { useCallback } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { type AnalyticsOptions, AnalyticsView } from './AnalyticsView.tsx';

/** The whole account's statistics (deleted links' clicks included) and its top links. */
export function AccountAnalytics(options: AnalyticsOptions) {
  const { client } = useShortlinks();
  const load = useCallback((query: StatsQuery) => client.stats.account(query), [client]);
  return (
    <AnalyticsView
      label="Statistics of all links"
      heading={
        <>
          <h2>All links</h2>
          <div className="analytics-subtitle muted">Every click on the account’s links, deleted links included.</div>
        </>
      }
      load={load}
      emptyHint="No clicks in this range. Share a short link, and its visits appear here."
      {...options}
    />
  );
}
