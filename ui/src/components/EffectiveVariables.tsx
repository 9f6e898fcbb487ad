import { Fragment } from 'react';
import { useEffectiveVariables } from '../api/hooks';
import type { DynamicCredentialsEntry } from '../api/types';
import { Listing } from './Listing';
import { LevelLink, Overridden, PrecedenceTable } from './Precedence';
import { ShownValue, SourceWords, VersionLink, type Place } from './SourceWords';

const CLOUDS: Record<string, string> = { aws: 'AWS', azure: 'Azure', gcp: 'Google Cloud', vault: 'Vault' };

/**
 * "Dynamic credentials: AWS (plan, apply), AWS alias STAGING (plan)": the configurations the
 * variables turn on, as the API's explain data says (the UI reads no TFC_ variable itself).
 * They are a configuration, not a secret: the role or account each uses is in the table below.
 */
export function DynamicCredentialsNote({ entries }: { entries: readonly DynamicCredentialsEntry[] }) {
  if (!entries.length) return null;
  return (
    <p className="dynamic-credentials">
      <strong>Dynamic credentials:</strong>{' '}
      {entries.map((entry, i) => (
        <Fragment key={`${entry.target}:${entry.alias ?? ''}`}>
          {i > 0 && ', '}
          <span title={`Tokens with audience ${entry.audience}`}>
            {CLOUDS[entry.target] ?? entry.target}
            {entry.alias !== null && (
              <>
                {' '}
                alias <code>{entry.alias}</code>
              </>
            )}{' '}
            ({entry.phases.length ? entry.phases.join(', ') : 'a variable it needs is missing'})
          </span>
        </Fragment>
      ))}
    </p>
  );
}

/**
 * Each winning value of `path` (a workspace's or a run's effective variables), where it comes
 * from, why it won and what it beat. The levels and reasons are the API's (`explain=true`): the
 * UI repeats no precedence rule.
 */
export function EffectiveVariables({
  of,
  place,
  title,
}: {
  of: { owner: 'workspaces' | 'runs'; id: string };
  place: Place;
  title: string;
}) {
  const list = useEffectiveVariables(of.owner, of.id);
  const levels = list.data?.meta?.precedence ?? [];
  return (
    <section aria-labelledby="effective-title">
      <h2 id="effective-title">{title}</h2>
      <DynamicCredentialsNote entries={list.data?.meta?.['dynamic-credentials'] ?? []} />
      <Listing list={list} what="effective variables" empty="No variables reach it.">
        {(items) => (
          <>
            <div className="table-wrap">
              <table className="effective">
                <caption className="visually-hidden">
                  {title}: each variable's winning value, where it comes from and why it wins
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Variable</th>
                    <th scope="col">Value</th>
                    <th scope="col">From</th>
                    <th scope="col">Why it wins</th>
                    <th scope="col">Overrides</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((variable) => {
                    const a = variable.attributes;
                    return (
                      <tr key={variable.id}>
                        <th scope="row">
                          <code>{a.key}</code> <span className="badge">{a.category}</span>
                        </th>
                        <td>
                          <ShownValue value={a} />
                        </td>
                        <td>
                          <SourceWords source={a.source} place={place} />
                          <VersionLink source={a.source} />
                        </td>
                        <td className="why">
                          <LevelLink source={a.source} /> {a.reason}
                        </td>
                        <td>
                          <Overridden variable={variable} place={place} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <PrecedenceTable levels={levels} />
          </>
        )}
      </Listing>
    </section>
  );
}
