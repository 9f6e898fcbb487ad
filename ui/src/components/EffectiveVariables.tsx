import { Fragment } from 'react';
import { Link } from 'react-router';
import { useEffectiveVariables } from '../api/hooks';
import type { DynamicCredentialsEntry, EffectiveValue, Source } from '../api/types';
import { Listing } from './Listing';
import { LevelLink, Overridden, PrecedenceTable } from './Precedence';

/** The workspace a page's effective variables belong to, and its project, to link sources to. */
export interface Place {
  workspaceId: string | undefined;
  projectId: string | undefined;
  projectName: string | undefined;
}

/** Where a value comes from, in words and links: "set 'defaults', applied to project 'core'". */
export function SourceWords({ source, place }: { source: Source; place: Place }) {
  if (source.type === 'run') return <>the run's own variables</>;
  if (source.type === 'workspace') {
    return place.workspaceId ? (
      <Link to={`/workspaces/${place.workspaceId}`}>the workspace's own variables</Link>
    ) : (
      <>the workspace's own variables</>
    );
  }
  const set = source.varset!;
  const project = place.projectId ? (
    <Link to={`/projects/${place.projectId}`}>
      {place.projectName ? `project '${place.projectName}'` : "the workspace's project"}
    </Link>
  ) : (
    "the workspace's project"
  );
  return (
    <>
      set '<Link to={`/varsets/${set.id}`}>{set.name}</Link>',{' '}
      {set.scope === 'global' ? (
        'global'
      ) : set.scope === 'project' ? (
        <>applied to {project}</>
      ) : (
        'applied to the workspace'
      )}
      {set.owner === 'project' ? ', owned by the project' : ''}
      {set.priority ? ', priority' : ''}
    </>
  );
}

/** " (version 3)": the set's version a value is of, linked to that version in the set's history. */
function VersionLink({ source }: { source: Source }) {
  const set = source.varset;
  if (!set || set.version === null) return null;
  return (
    <>
      {' '}
      (
      <Link
        to={`/varsets/${set.id}/history?version=${set.version}`}
        title={`The version of set '${set.name}' this value is of, in the set's history`}
      >
        version {set.version}
      </Link>
      )
    </>
  );
}

/** A value as shown: a sensitive one never is, and reads "(sensitive)"; one an import left without a value says it needs one. */
export function ShownValue({ value, inParentheses = false }: { value: EffectiveValue; inParentheses?: boolean }) {
  if (value['value-needed']) return <em>(sensitive, needs a value)</em>;
  if (value.sensitive) return <em>(sensitive)</em>;
  return inParentheses ? (
    <>
      (<code>{value.value}</code>)
    </>
  ) : (
    <code>{value.value}</code>
  );
}

const CLOUDS: Record<string, string> = { aws: 'AWS', azure: 'Azure', gcp: 'Google Cloud', vault: 'Vault' };

/**
 * "Dynamic credentials: AWS (plan, apply), AWS alias STAGING (plan)": the configurations the
 * variables turn on, as the API's explain data says (the UI reads no TFC_ variable itself).
 * They are a configuration, not a secret: the role or account each uses is in the table below.
 */
function DynamicCredentialsNote({ entries }: { entries: readonly DynamicCredentialsEntry[] }) {
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
