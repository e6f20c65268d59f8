import { countOf } from '@shortlinks/ui';
import { PAGE_SIZES } from './audit-filters.ts';

/** The log's pages: how many entries match, which page this is, Previous / Next, and the page size. */
export function AuditPager({
  page,
  perPage,
  total,
  onPage,
  onPerPage,
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const sizes = (PAGE_SIZES as readonly number[]).includes(perPage) ? PAGE_SIZES : [...PAGE_SIZES, perPage].sort((a, b) => a - b);
  return (
    <nav className="pager audit-pager" aria-label="Pages">
      <span className="muted" role="status" data-testid="audit-total">
        {countOf(total, 'entry', 'entries')} · page {page} of {pages}
      </span>
      <label className="audit-per-page">
        <span>Per page</span>
        <select className="input" value={perPage} onChange={(event) => onPerPage(Number(event.target.value))}>
          {sizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="button small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button type="button" className="button small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
