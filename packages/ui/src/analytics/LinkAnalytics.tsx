/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, StatsQuery } from '@shortlinks/client';
import { useCallback, useEffect, useState } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { type AnalyticsOptions, AnalyticsView } from './AnalyticsView.tsx';

/** One link's statistics: what the link is, then its clicks over time and breakdowns. */
export function LinkAnalytics({ linkId, ...options }: { linkId: string } & AnalyticsOptions) {
  const { client } = useShortlinks();
  const [link, setLink] = useState<Link>();
  const load = useCallback((query: StatsQuery) => client.stats.link(linkId, query), [client, linkId]);

  useEffect(() => {
    let current = true;
    setLink(undefined);
    // The heading only: a link that cannot be read fails its statistics too, and they say why.
    client.links.get(linkId).then(
      (found) => current && setLink(found),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, linkId]);

  return (
    <AnalyticsView
      key={linkId}
      label={link ? `Statistics of ${link.title}` : 'Statistics of the link'}
      heading={
        <>
          <h2>{link ? link.title : 'Link statistics'}</h2>
          {link ? (
            <div className="analytics-subtitle">
              <span className="link-short">{link.short_url.replace(/^https?:\/\//, '')}</span>
              <span className="link-destination" title={link.destination_url}>
                → {link.destination_url}
              </span>
            </div>
          ) : null}
        </>
      }
      load={load}
      emptyHint="No clicks in this range. Visits appear here a few seconds after they happen."
      {...options}
    />
  );
}
