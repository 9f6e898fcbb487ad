import { Link } from 'react-router';
import type { EffectiveValue, Source } from '../api/types';

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
export function VersionLink({ source }: { source: Source }) {
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
