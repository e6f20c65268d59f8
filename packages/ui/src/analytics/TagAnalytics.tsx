/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { StatsQuery, Tag } from '@shortlinks/client';
import { useCallback, useEffect, useState } from 'react';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { TagChip } from '../tags/TagChip.tsx';
import { type AnalyticsOptions, AnalyticsView } from './AnalyticsView.tsx';

/** A tag's statistics: the clicks of the links that carry it now, and its top links. */
export function TagAnalytics({ tagId, ...options }: { tagId: string } & AnalyticsOptions) {
  const { client } = useShortlinks();
  const [tag, setTag] = useState<Tag>();
  const load = useCallback((query: StatsQuery) => client.stats.tag(tagId, query), [client, tagId]);

  useEffect(() => {
    let current = true;
    setTag(undefined);
    client.tags.list().then(
      (list) => current && setTag(list.tags.find((found) => found.id === tagId)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, tagId]);

  return (
    <AnalyticsView
      key={tagId}
      label={tag ? `Statistics of the tag ${tag.name}` : 'Statistics of the tag'}
      heading={
        <>
          <h2 className="row" style={{ gap: 8 }}>
            Tag {tag ? <TagChip tag={tag} /> : null}
          </h2>
          {tag ? (
            <div className="analytics-subtitle muted">
              The links that carry this tag now: {tag.link_count} {tag.link_count === 1 ? 'link' : 'links'}, with their past clicks.
            </div>
          ) : null}
        </>
      }
      load={load}
      emptyHint="No clicks on this tag’s links in this range."
      {...options}
    />
  );
}
