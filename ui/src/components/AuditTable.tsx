import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { AuditEvent } from '../api/audit';
import { FACT_PAGES, resourceLabel, resourcePath, whatHappened } from './auditWords';
import { When } from './When';

/** Audit events as a table: when, who, what, the resource (linked where the UI has its page), the facts of `meta`, the request id. */
export function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    <div className="table-wrap">
      <table className="audit-table" aria-label="Audit events">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Resource</th>
            <th scope="col">Details</th>
            <th scope="col">Request</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id}>
              <td>
                <When at={event.timestamp} />
              </td>
              <td>{event.auth.description}</td>
              <td>{whatHappened(event)}</td>
              <td>
                <Resource event={event} />
              </td>
              <td>
                <Facts meta={event.resource.meta} />
              </td>
              <td>{event.request.id && <RequestId id={event.request.id} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Resource({ event }: { event: AuditEvent }) {
  const label = resourceLabel(event);
  const path = resourcePath(event);
  return (
    <>
      {path ? <Link to={path}>{label}</Link> : label}
      {label !== event.resource.id && (
        <>
          <br />
          <code className="small-id">{event.resource.id}</code>
        </>
      )}
    </>
  );
}

function Facts({ meta }: { meta: AuditEvent['resource']['meta'] }) {
  const entries = Object.entries(meta ?? {}).filter(([, value]) => value !== null && value !== '');
  if (!entries.length) return null;
  return (
    <dl className="audit-facts">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <FactValue page={FACT_PAGES[name]} value={String(value)} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A fact's value; ids of things with a page (one, or a comma-separated list) link to them. */
function FactValue({ page, value }: { page: string | undefined; value: string }) {
  if (!page) return <>{value}</>;
  const ids = value.split(',');
  return (
    <>
      {ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <Link to={`${page}${id}`}>{id}</Link>
        </span>
      ))}
    </>
  );
}

/**
 * The request's id, small, with a button copying it (to find the request in the server's logs).
 * Where the browser refuses the clipboard (a page served over plain HTTP has none), the button
 * selects the id instead, for the keyboard's copy.
 */
function RequestId({ id }: { id: string }) {
  const [done, setDone] = useState<'Copied' | 'Selected' | null>(null);
  const text = useRef<HTMLElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setDone('Copied');
    } catch {
      if (text.current) window.getSelection()?.selectAllChildren(text.current);
      setDone('Selected');
    }
  };
  return (
    <span className="request-id">
      <code ref={text}>{id}</code>
      <button type="button" className="small" onClick={() => void copy()}>
        {done ?? 'Copy'}
        <span className="visually-hidden"> request id {id}</span>
      </button>
    </span>
  );
}
