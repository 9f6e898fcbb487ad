import { useState } from 'react';
import type { EffectiveValue, EffectiveVariable, PrecedenceLevel, Source } from '../api/types';
import { ShownValue, SourceWords, type Place } from './SourceWords';

/** Overridden values shown before "Show N more". */
const FOLDED_AFTER = 3;

const levelAnchor = (level: number) => `precedence-level-${level}`;

/** Opens the table of levels before the browser scrolls to one of its rows. */
function openPrecedenceTable(): void {
  const details = document.getElementById('precedence');
  if (details instanceof HTMLDetailsElement) details.open = true;
}

/** "Level 3", linked to its row in the table of levels, its name in the title. */
export function LevelLink({ source }: { source: Source }) {
  return (
    <a
      className="badge level"
      href={`#${levelAnchor(source.precedence)}`}
      onClick={openPrecedenceTable}
      title={source['level-name']}
    >
      Level {source.precedence}
    </a>
  );
}

/** What the winner beat, grouped by level (highest first), folded past the first three. */
export function Overridden({ variable, place }: { variable: EffectiveVariable; place: Place }) {
  const [unfolded, setUnfolded] = useState(false);
  const { key, overridden } = variable.attributes;
  if (overridden.length === 0) return <span className="muted">nothing</span>;
  const shown = unfolded ? overridden : overridden.slice(0, FOLDED_AFTER);
  const groups: { level: number; name: string | undefined; values: EffectiveValue[] }[] = [];
  for (const value of shown) {
    const last = groups[groups.length - 1];
    if (last?.level === value.source.precedence) last.values.push(value);
    else groups.push({ level: value.source.precedence, name: value.source['level-name'], values: [value] });
  }
  const hidden = overridden.length - shown.length;
  return (
    <>
      <ul className="overridden" aria-label={`What ${key} overrides`}>
        {groups.map((group) => (
          <li key={group.level}>
            <a href={`#${levelAnchor(group.level)}`} onClick={openPrecedenceTable}>
              Level {group.level}
            </a>
            {group.name && <span className="muted">: {group.name}</span>}
            <ul>
              {group.values.map((value, index) => (
                <li key={index}>
                  overrides <code>{key}</code> from <SourceWords source={value.source} place={place} />{' '}
                  <ShownValue value={value} inParentheses />
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      {overridden.length > FOLDED_AFTER && (
        <button type="button" className="small" aria-expanded={unfolded} onClick={() => setUnfolded(!unfolded)}>
          {unfolded ? 'Show fewer' : `Show ${hidden} more`}
        </button>
      )}
    </>
  );
}

/** The precedence levels as the API lists them (`meta.precedence`), each row a link target. */
export function PrecedenceTable({ levels }: { levels: PrecedenceLevel[] }) {
  if (!levels.length) return null;
  return (
    <details id="precedence" className="precedence">
      <summary>How precedence works: the levels, highest first</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Values from</th>
          </tr>
        </thead>
        <tbody>
          {levels.map(({ level, name }) => (
            <tr key={level} id={levelAnchor(level)}>
              <td>{level}</td>
              <td>{name}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        As the API gives them (<code>effective-variables?explain=true</code>); see the{' '}
        <a href="/api/docs">API reference</a> and, in varsetd's documentation, docs/api.md, “Effective variables”.
      </p>
    </details>
  );
}
