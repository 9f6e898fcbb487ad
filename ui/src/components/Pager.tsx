import type { Pagination } from '../api/types';

/** Previous and next page of a list, with where the list stands: nothing when it all fits on one page. */
export function Pager({ pagination, onPage, label }: { pagination: Pagination | undefined; onPage: (page: number) => void; label: string }) {
  if (!pagination || pagination['total-pages'] <= 1) return null;
  const { 'current-page': current, 'total-pages': pages, 'total-count': count } = pagination;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={pagination['prev-page'] === null} onClick={() => onPage(current - 1)}>
        Previous page
      </button>
      <span aria-live="polite">
        Page {current} of {Math.max(pages, 1)} ({count} {count === 1 ? 'item' : 'items'})
      </span>
      <button type="button" disabled={pagination['next-page'] === null} onClick={() => onPage(current + 1)}>
        Next page
      </button>
    </nav>
  );
}
