/** @jsxRuntime automatic @jsxImportSource react */ // Parcel cannot read the React version from "catalog:" (docs/extension.md).
import type { Link, Tag } from '@shortlinks/client';
import type { TagSummary } from '@shortlinks/contract';
import { LIMITS } from '@shortlinks/contract/rules';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { countOf } from '../counts.ts';
import { useDomainChoices } from '../domains/useDomainChoices.ts';
import { ErrorBanner } from '../ErrorBanner.tsx';
import { useShortlinks } from '../ShortlinksProvider.tsx';
import { sortedByName } from '../tags/tag-names.ts';
import { BulkActions } from './BulkActions.tsx';
import { matchingLinks } from './bulk-run.ts';
import { formErrorOf } from './field-errors.ts';
import { LinkRow } from './LinkRow.tsx';
import { DEFAULT_LIST_VIEW, LIST_ORDERS, type ListOrder, type ListView, listQuery, pageCount } from './link-list-query.ts';
import { useLinkSelection } from './link-selection.ts';

const PER_PAGE = 20;

interface Listing {
  links: Link[];
  total: number;
}

/**
 * The account's links, newest first unless another order is chosen: searched, filtered by tag,
 * sorted and paginated by the server (GET /links); each editable and deletable. Going to another
 * page brings the list's top into view and the focus to it.
 *
 * What it shows (search, tag, order, page) is its own, or the host's when the host passes `view`
 * and `onViewChange` (the web dashboard keeps it in the address).
 */
export function LinksView({
  tags,
  version,
  onChanged,
  emptyHint = 'No links yet.',
  statisticsHref,
  view: hostView,
  onViewChange,
  tagHref,
  bulkActions = false,
}: {
  tags: Tag[];
  /** Bumped by the page whenever links or tags changed, to fetch again. */
  version: number;
  onChanged: () => void;
  /** Shown when the account has no links at all: where this app's people make their first one. */
  emptyHint?: ReactNode;
  /** Where a link's statistics are (the host's route); without it the rows have no Statistics action. */
  statisticsHref?: (link: Link) => string;
  /** What to show, when the host keeps it (with `onViewChange`). */
  view?: ListView;
  /**
   * The person chose something else to show. `replace` is true for a search being typed on from a
   * search already made: a host keeping history makes one entry of it, not one per key.
   */
  onViewChange?: (next: ListView, how: { replace: boolean }) => void;
  /** Where a tag chip of a row leads (the list filtered by that tag); without it chips are not links. */
  tagHref?: (tag: TagSummary) => string;
  /** Rows can be ticked, and the ticked ones (or all matching) tagged, untagged or deleted together. */
  bulkActions?: boolean;
}) {
  const { client, messages, readOnly } = useShortlinks();
  // A viewer selects nothing: every bulk action writes.
  const bulk = bulkActions && !readOnly;
  const [ownView, setOwnView] = useState<ListView>(DEFAULT_LIST_VIEW);
  const shown = hostView && onViewChange ? hostView : ownView;
  const { search: query, tagId, domain, order, page } = shown;
  // The domain filter shows once the workspace serves a branded domain (docs/domains.md).
  const domains = useDomainChoices();
  const { selection, clear, pick, pickAllMatching, isPicked } = useLinkSelection();
  const show = (change: Partial<ListView>, { correction = false } = {}) => {
    const next = { ...shown, page: 1, ...change };
    // Another filter, search or order chooses other links: what was ticked no longer shows.
    if (next.search !== query || next.tagId !== tagId || next.domain !== domain || next.order !== order) clear();
    const typingOn = query !== '' && next.search !== '' && next.search !== query;
    if (hostView && onViewChange) onViewChange(next, { replace: correction || typingOn });
    else setOwnView(next);
  };
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
      const result = await client.links.list(listQuery({ search: query, tagId, domain, order, page, perPage: PER_PAGE }));
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
  }, [client, messages, query, tagId, domain, order, page, version, attempt]);

  useEffect(() => {
    if (!listing || !turned.current) return;
    turned.current = false;
    top.current?.scrollIntoView({ block: 'start' });
    top.current?.focus({ preventScroll: true });
  }, [listing]);
  const turnTo = (next: number) => {
    turned.current = true;
    show({ page: next });
  };

  const pages = pageCount(listing?.total ?? 0, PER_PAGE);
  // A page past the end (links deleted, an old bookmark): the last page there is instead, once each
  // time the page turns out to be past the end.
  const pastTheEnd = listing !== undefined && listing.links.length === 0 && listing.total > 0 && page > pages;
  useEffect(() => {
    if (pastTheEnd) show({ page: pages }, { correction: true });
  }, [pastTheEnd, pages]);
  const pageLinks = listing?.links ?? [];
  const pickedOnPage = pageLinks.filter(isPicked).length;
  const chosen = selection.allMatching ? (listing?.total ?? 0) : selection.picked.size;
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
          onChange={(event) => show({ search: event.target.value })}
        />
        <select
          className="input"
          style={{ maxWidth: 200 }}
          aria-label="Filter by tag"
          value={tagId}
          onChange={(event) => show({ tagId: event.target.value })}
        >
          <option value="">All tags</option>
          {sortedByName(tags).map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.name} ({tag.link_count})
            </option>
          ))}
          {/* A tag from an address that is not (or no longer) one of the account's. */}
          {tagId !== '' && tags.length > 0 && !tags.some((tag) => tag.id === tagId) ? <option value={tagId}>Unknown tag</option> : null}
        </select>
        {domains || domain !== '' ? (
          <select
            className="input"
            style={{ maxWidth: 200 }}
            aria-label="Filter by domain"
            value={domain}
            onChange={(event) => show({ domain: event.target.value })}
          >
            <option value="">All domains</option>
            {(domains?.names ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
            {/* A domain from an address that is not (or no longer) a serving one: its links still list. */}
            {domain !== '' && !domains?.names.includes(domain) ? <option value={domain}>{domain}</option> : null}
          </select>
        ) : null}
        <select
          className="input"
          style={{ maxWidth: 170 }}
          aria-label="Sort links"
          value={order}
          onChange={(event) => show({ order: event.target.value as ListOrder })}
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
      {/* Mounted while the list is, so the report of an action outlives the links it deleted. */}
      {bulk && listing ? (
        <BulkActions
          tags={tags}
          count={chosen}
          total={listing.total}
          page={pickedOnPage === 0 ? 'none' : pickedOnPage === pageLinks.length ? 'all' : 'some'}
          allMatching={selection.allMatching}
          onSelectPage={(picked) => pick(pageLinks, picked, pageLinks)}
          onSelectAllMatching={pickAllMatching}
          onClear={clear}
          gather={async (onProgress) =>
            selection.allMatching
              ? matchingLinks(client, listQuery({ search: query, tagId, domain, order, page: 1, perPage: PER_PAGE }), onProgress)
              : [...selection.picked.values()]
          }
          onFinished={() => {
            clear();
            onChanged();
          }}
        />
      ) : null}
      {error ? <ErrorBanner message={error} onRetry={() => setAttempt((n) => n + 1)} /> : null}
      {!listing && !error ? (
        <div className="empty">
          <div className="spinner" style={{ margin: '0 auto' }} role="status" aria-label="Loading links" />
        </div>
      ) : null}
      {listing && listing.links.length === 0 ? (
        <div className="empty">{query || tagId || domain ? 'No links match.' : emptyHint}</div>
      ) : null}
      {listing && listing.links.length > 0 ? (
        <ul className="link-list">
          {listing.links.map((link) => (
            <LinkRow
              key={link.id}
              link={link}
              tags={tags}
              onChanged={onChanged}
              statisticsHref={statisticsHref}
              tagHref={tagHref}
              {...(bulk ? { selected: isPicked(link), onSelect: (picked: boolean) => pick([link], picked, pageLinks) } : {})}
            />
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
