import { useCallback, useEffect, useState, type SyntheticEvent } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useAuditTrail, type AuditEvent, type AuditTrail as Trail } from '../api/audit';
import type { Pagination } from '../api/types';
import { AuditTable } from '../components/AuditTable';
import { actionWords, TYPE_NAMES, typeName } from '../components/auditWords';
import { LoadError } from '../components/errors';
import { Pager } from '../components/Pager';
import { useSearchAsYouType, useUrlParameters } from '../components/search';

export const AUDIT_PAGE_SIZE = 100;

/** `since` (UTC, as the URL and the API hold it) as a datetime-local input shows it: local time, to the second. */
function localInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** The Pager's shape of the trail's pagination. */
const pagerPagination = (p: Trail['pagination']): Pagination => ({
  'current-page': p.current_page,
  'page-size': AUDIT_PAGE_SIZE,
  'total-pages': p.total_pages,
  'total-count': p.total_count,
  'next-page': p.next_page,
  'prev-page': p.prev_page,
});

/**
 * An organization's audit trail, newest first, 100 events a page, filtered by the API: by time
 * (`since`), type, action and who.
 */
export function AuditTrail() {
  const org = useParams().org!;
  const [params, change] = useUrlParameters();
  const since = params.get('since') ?? '';
  const page = Number(params.get('page')) || 1;
  const type = params.get('type') ?? '';
  const action = params.get('action') ?? '';
  const who = params.get('who') ?? '';
  const filters = Object.fromEntries(
    Object.entries({
      'filter[resource][type]': type,
      'filter[resource][action]': action,
      'filter[auth][description]': who,
    }).filter(([, value]) => value !== ''),
  );
  const trail = useAuditTrail(org, { since: since || undefined, number: page, size: AUDIT_PAGE_SIZE, filters });

  const searchWho = useCallback((term: string) => change({ who: term, page: '' }), [change]);
  const [whoText, setWhoText] = useSearchAsYouType(who, searchWho);

  if (trail.error instanceof ApiError && trail.error.status === 404) {
    return (
      <>
        <h1 tabIndex={-1}>Audit trail of {org}</h1>
        <p className="notice">
          Only the organization's own token or the site administrator can read an organization's audit trail. The API
          answered “not found”: this token is neither, or there is no organization {org}.
        </p>
      </>
    );
  }

  const events = trail.data?.data ?? [];
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <h1 tabIndex={-1}>Audit trail of {org}</h1>
      <p className="muted">Every write made through the API in this organization, newest first.</p>
      <SinceForm since={since} onSince={(iso) => change({ since: iso, page: '' })} />
      <fieldset className="filters audit-filters">
        <legend>Show only the events</legend>
        <label>
          Type{' '}
          <select value={type} onChange={(e) => change({ type: e.target.value, page: '' })}>
            <option value="">any</option>
            {choices(Object.keys(TYPE_NAMES), events, 'type', type).map((t) => (
              <option key={t} value={t}>
                {typeName(t)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action{' '}
          <select value={action} onChange={(e) => change({ action: e.target.value, page: '' })}>
            <option value="">any</option>
            {choices([], events, 'action', action).map((a) => (
              <option key={a} value={a}>
                {actionWords(a)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who{' '}
          <input
            type="search"
            value={whoText}
            onChange={(e) => setWhoText(e.target.value)}
            placeholder="part of the description"
          />
        </label>
      </fieldset>
      {trail.error ? (
        <LoadError error={trail.error} what="audit trail" />
      ) : !trail.data ? (
        <p>Loading…</p>
      ) : events.length === 0 ? (
        <p className="muted">
          {page > 1
            ? 'No event on this page.'
            : filtered
              ? 'No event passes the filters.'
              : since
                ? 'No event since that time.'
                : 'No event yet.'}
        </p>
      ) : (
        <>
          {filtered && (
            <p className="counts">
              {trail.data.pagination.total_count === 1
                ? '1 event passes the filters.'
                : `${trail.data.pagination.total_count} events pass the filters.`}
            </p>
          )}
          <AuditTable events={events} />
        </>
      )}
      {trail.data && (
        <Pager
          pagination={pagerPagination(trail.data.pagination)}
          onPage={(n) => change({ page: n > 1 ? String(n) : '' })}
          label="Audit events"
        />
      )}
    </>
  );
}

/** The known values, then any others of the page, then the chosen one even when the page has none of it. */
function choices(known: string[], events: AuditEvent[], field: 'type' | 'action', chosen: string): string[] {
  const values = new Set(known);
  for (const event of events) values.add(event.resource[field]);
  if (chosen) values.add(chosen);
  return [...values];
}

/** The `since` time, typed in local time and sent (and kept in the URL) as UTC. */
function SinceForm({ since, onSince }: { since: string; onSince: (iso: string) => void }) {
  const [text, setText] = useState(localInput(since));
  useEffect(() => setText(localInput(since)), [since]);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const date = new Date(text);
    onSince(text && !Number.isNaN(date.getTime()) ? date.toISOString() : '');
  };
  return (
    <form className="search audit-since" onSubmit={submit}>
      <label htmlFor="audit-since">Events since (your local time)</label>
      <input id="audit-since" type="datetime-local" step={1} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit">Show</button>
      {since && (
        <button type="button" className="small" onClick={() => onSince('')}>
          All events
        </button>
      )}
    </form>
  );
}
