import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { EffectiveVariable, Source } from '../api/types';
import { LevelLink, Overridden } from './Precedence';
import { ShownValue, VersionLink, type Place } from './SourceWords';
import { variablesTitleId } from './VariableEditor';

/** A value longer than this, or of more than one line, is shown on one line until "Show all". */
const LONG_VALUE = 60;

const isLong = (value: string | null): boolean => value !== null && (value.length > LONG_VALUE || value.includes('\n'));

/** The rule that settled a winner, as the API names it in `decided-by`. */
const RULES: Record<string, string> = {
  'only-value': 'the only value',
  precedence: 'a higher level',
  name: 'a tie at one level, settled by name',
  order: 'the last of the run’s values',
};

/** The anchor of the workspace's own variables on its page (VariableEditor's heading). */
const ownVariablesAnchor = (workspaceId: string) => `#${variablesTitleId({ kind: 'workspaces', id: workspaceId })}`;

/** "Level 3 · enforced (direct, priority)" or "Level 8 · this workspace", linked. */
function From({ source, workspaceId }: { source: Source; workspaceId: string }) {
  const set = source.varset;
  return (
    <>
      <LevelLink source={source} />{' '}
      {set ? (
        <>
          <Link to={`/varsets/${set.id}`}>{set.name}</Link>{' '}
          <span className="muted">
            ({set.scope === 'workspace' ? 'direct' : set.scope}
            {set.priority ? ', priority' : ''})
          </span>
          <VersionLink source={source} />
        </>
      ) : source.type === 'workspace' ? (
        <a href={ownVariablesAnchor(workspaceId)}>this workspace</a>
      ) : (
        'the run'
      )}
    </>
  );
}

/** A value, collapsed to one line when it is long; sensitive ones are never there to show. */
function Value({ variable }: { variable: EffectiveVariable }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const a = variable.attributes;
  if (a.sensitive || a['value-needed'] || !isLong(a.value)) {
    return a.value === '' ? <span className="muted">(empty)</span> : <ShownValue value={a} />;
  }
  return (
    <>
      <code id={id} className={open ? 'long-value open' : 'long-value'}>
        {a.value}
      </code>
      <button type="button" className="small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? 'Show less' : 'Show all'}
        <span className="visually-hidden"> of {a.key}</span>
      </button>
    </>
  );
}

/** One effective variable: a row, and under it, on demand, why it wins and what it beat. */
export function RunGetsRow({
  variable,
  place,
}: {
  variable: EffectiveVariable;
  place: Place & { workspaceId: string };
}) {
  const [open, setOpen] = useState(false);
  const whyId = useId();
  const a = variable.attributes;
  const decided = a['decided-by'];
  return (
    <>
      <tr data-effective={variable.id}>
        <th scope="row">
          <code>{a.key}</code> <span className="badge">{a.category}</span>
        </th>
        <td className="run-gets-value">
          <Value variable={variable} />
        </td>
        <td>
          <From source={a.source} workspaceId={place.workspaceId} />
        </td>
        <td className="why-cell">
          <button
            type="button"
            className="small"
            aria-expanded={open}
            aria-controls={whyId}
            onClick={() => setOpen(!open)}
          >
            Why
            <span className="visually-hidden">
              {' '}
              {a.key} ({a.category})
            </span>
          </button>
        </td>
      </tr>
      <tr id={whyId} className="why-detail" hidden={!open}>
        <td colSpan={4}>
          {open && (
            <>
              <p>
                Level {a.source.precedence}
                {a.source['level-name'] && `: ${a.source['level-name']}`}.{' '}
                {decided && <strong>Decided by {RULES[decided] ?? decided}:</strong>} {a.reason}
              </p>
              {a.overridden.length > 0 ? (
                <>
                  <p>Also defined, and overridden:</p>
                  <Overridden variable={variable} place={place} />
                </>
              ) : (
                <p className="muted">Nothing else defines it.</p>
              )}
            </>
          )}
        </td>
      </tr>
    </>
  );
}
