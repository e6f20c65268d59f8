/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { GroupStats } from '@shortlinks/client';
import { BreakdownList } from './BreakdownList.tsx';
import type { Formats } from './format.ts';

/** The links with the most clicks; each opens that link's statistics when the host says how. */
export function TopLinks({
  links,
  formats,
  onOpenLink,
}: {
  links: GroupStats['top_links'];
  formats: Formats;
  onOpenLink?: ((linkId: string) => void) | undefined;
}) {
  return (
    <BreakdownList
      title="Top links"
      testId="breakdown-top-links"
      count={formats.count}
      empty="No live link was clicked."
      entries={links.map((link) => {
        const name = link.title || link.slug;
        const short = link.short_url.replace(/^https?:\/\//, '');
        return {
          key: link.id,
          clicks: link.clicks,
          label: onOpenLink ? (
            <button type="button" className="link-button" onClick={() => onOpenLink(link.id)} title={`Statistics of ${short}`}>
              {name}
              <span className="bar-sub">{short}</span>
            </button>
          ) : (
            <>
              {name}
              <span className="bar-sub">{short}</span>
            </>
          ),
        };
      })}
    />
  );
}
