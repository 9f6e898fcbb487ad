import type { Pagination } from '../api/types';
import { pastTheEnd } from './Listing';

/**
 * Previous and next page of a list, with where the list stands: nothing when it all fits on one
 * page. A page past the last one (a typed or stale `?page=`) offers the last page instead.
 */
export function Pager({
  pagination,
  onPage,
  label,
}: {
  pagination: Pagination | undefined;
  onPage: (page: number) => void;
  label: string;
}) {
  if (!pagination) return null;
  const { 'current-page': current, 'total-pages': pages, 'total-count': count } = pagination;
  if (pastTheEnd(pagination)) {
    const last = Math.max(pages, 1);
    return (
      <nav className="pager" aria-label={`${label} pages`}>
        <span>
          There is no page {current}: the list has {last} {last === 1 ? 'page' : 'pages'} ({count}{' '}
          {count === 1 ? 'item' : 'items'}).
        </span>
        <button type="button" onClick={() => onPage(last)}>
          {last === 1 ? 'First page' : `Last page (${last})`}
        </button>
      </nav>
    );
  }
  if (pages <= 1) return null;
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
