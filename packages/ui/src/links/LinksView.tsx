/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, Tag } from '@shortlinks/client';
import { LIMITS } from '@shortlinks/contract/rules';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { countOf } from '../counts.ts';
import { ErrorBanner } from '../ErrorBanner.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { sortedByName } from '../tags/tag-names.ts';
import { formErrorOf } from './field-errors.ts';
import { LinkRow } from './LinkRow.tsx';
import { LIST_ORDERS, type ListOrder, listQuery, pageCount } from './link-list-query.ts';

const PER_PAGE = 20;

interface Listing {
  links: Link[];
  total: number;
}

/**
 * The account's links, newest first unless another order is chosen: searched, filtered by tag,
 * sorted and paginated by the server (GET /links); each editable and deletable. Going to another
 * page brings the list's top into view and the focus to it.
 */
export function LinksView({
  tags,
  version,
  onChanged,
  emptyHint = 'No links yet.',
  statisticsHref,
}: {
  tags: Tag[];
  /** Bumped by the page whenever links or tags changed, to fetch again. */
  version: number;
  onChanged: () => void;
  /** Shown when the account has no links at all: where this app's people make their first one. */
  emptyHint?: ReactNode;
  /** Where a link's statistics are (the host's route); without it the rows have no Statistics action. */
  statisticsHref?: (link: Link) => string;
}) {
  const { client, messages } = useShortlinks();
  const [query, setQuery] = useState('');
  const [tagId, setTagId] = useState('');
  const [order, setOrder] = useState<ListOrder>('newest');
  const [page, setPage] = useState(1);
  const [listing, setListing] = useState<Listing>();
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const top = useRef<HTMLElement>(null);
  // Set by Previous / Next: once that page is shown, the list's top comes into view with the focus.
  const turned = useRef(false);

  useEffect(() => {
    // `attempt` is read so that Try again fetches anew.
    void attempt;
    let current = true;
    const load = async (): Promise<Listing> => {
      const result = await client.links.list(listQuery({ search: query, tagId, order, page, perPage: PER_PAGE }));
      return { links: result.links, total: result.total };
    };
    // A short pause while typing, so a search is not fetched for every key.
    const timer = setTimeout(
      () => {
        load().then(
          (result) => {
            if (!current) return;
            setListing(result);
            setError(undefined);
          },
          (caught) => {
            if (current) setError(formErrorOf(caught, messages).message);
          },
        );
      },
      query.trim() === '' ? 0 : 250,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, messages, query, tagId, order, page, version, attempt]);

  useEffect(() => {
    if (!listing || !turned.current) return;
    turned.current = false;
    top.current?.scrollIntoView({ block: 'start' });
    top.current?.focus({ preventScroll: true });
  }, [listing]);
  const turnTo = (next: number) => {
    turned.current = true;
    setPage(next);
  };

  const pages = pageCount(listing?.total ?? 0, PER_PAGE);
  return (
    <section aria-label="Links" ref={top} tabIndex={-1} className="links-view">
      <div className="toolbar">
        <input
          className="input"
          type="search"
          aria-label="Search links"
          placeholder="Search title, address, slug or external id"
          // The server refuses a longer search (GET /links), so it cannot be typed.
          maxLength={LIMITS.searchChars}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setPage(1);
          }}
        />
        <select
          className="input"
          style={{ maxWidth: 200 }}
          aria-label="Filter by tag"
          value={tagId}
          onChange={(event) => {
            setTagId(event.target.value);
            setPage(1);
          }}
        >
          <option value="">All tags</option>
          {sortedByName(tags).map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name} ({tag.link_count})
            </option>
          ))}
        </select>
        <select
          className="input"
          style={{ maxWidth: 170 }}
          aria-label="Sort links"
          value={order}
          onChange={(event) => {
            setOrder(event.target.value as ListOrder);
            setPage(1);
          }}
        >
          {LIST_ORDERS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className="muted" role="status" style={{ marginLeft: 'auto' }}>
          {listing ? `${countOf(listing.total, 'link')}${pages > 1 ? ` · page ${page} of ${pages}` : ''}` : ''}
        </span>
      </div>
      {error ? <ErrorBanner message={error} onRetry={() => setAttempt((n) => n + 1)} /> : null}
      {!listing && !error ? (
        <div className="empty">
          <div className="spinner" style={{ margin: '0 auto' }} role="status" aria-label="Loading links" />
        </div>
      ) : null}
      {listing && listing.links.length === 0 ? <div className="empty">{query || tagId ? 'No links match.' : emptyHint}</div> : null}
      {listing && listing.links.length > 0 ? (
        <ul className="link-list">
          {listing.links.map((link) => (
            <LinkRow key={link.id} link={link} tags={tags} onChanged={onChanged} statisticsHref={statisticsHref} />
          ))}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="button small" disabled={page <= 1} onClick={() => turnTo(page - 1)}>
            Previous
          </button>
          <span className="muted">
            Page {page} of {pages}
          </span>
          <button type="button" className="button small" disabled={page >= pages} onClick={() => turnTo(page + 1)}>
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}
