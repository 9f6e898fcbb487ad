import { useId, useState } from 'react';
import { useOrganizationChildren } from '../api/hooks';

export interface Picked {
  id: string;
  name: string;
}

/**
 * Chooses projects or workspaces of an organization by searching them through the API, a page
 * of matches at a time: an organization of any size never loads them all.
 */
export function Picker({
  org,
  kind,
  label,
  selected,
  onChange,
  single,
  errorProps,
}: {
  org: string;
  kind: 'projects' | 'workspaces';
  label: string;
  selected: Picked[];
  onChange: (picked: Picked[]) => void;
  single?: boolean;
  errorProps?: Record<string, unknown>;
}) {
  const id = useId();
  const [term, setTerm] = useState('');
  const search: Record<string, string> = kind === 'projects' ? { q: term } : { 'search[name]': term };
  const matches = useOrganizationChildren(org, kind, search, { size: 10 });
  const chosen = new Set(selected.map((s) => s.id));
  const candidates = matches.data?.data.filter((r) => !chosen.has(r.id)) ?? [];
  const total = matches.data?.meta?.pagination?.['total-count'];
  return (
    <fieldset className="picker" {...errorProps}>
      <legend>{label}</legend>
      {selected.length ? (
        <ul className="chosen" aria-label={`Chosen ${kind}`}>
          {selected.map((s) => (
            <li key={s.id}>
              <span>{s.name}</span>
              <button
                type="button"
                className="small"
                onClick={() => onChange(selected.filter((o) => o.id !== s.id))}
                aria-label={`Remove ${s.name}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None chosen.</p>
      )}
      <label htmlFor={`${id}-search`}>Search {kind}</label>
      <input
        id={`${id}-search`}
        type="search"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
        autoComplete="off"
      />
      <ul className="matches" aria-label={`Matching ${kind}`} aria-live="polite">
        {candidates.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              className="small"
              onClick={() =>
                onChange(
                  single
                    ? [{ id: r.id, name: r.attributes.name }]
                    : [...selected, { id: r.id, name: r.attributes.name }],
                )
              }
            >
              {single ? 'Choose' : 'Add'} {r.attributes.name}
            </button>
          </li>
        ))}
      </ul>
      {total !== undefined && total > 10 && (
        <p className="muted">Showing the first 10 of {total} matches: type to narrow them.</p>
      )}
    </fieldset>
  );
}
