import { Link } from 'react-router';
import { useProject, useWorkspace } from '../api/hooks';
import type { ChangedVariable, VersionChange } from '../api/types';

/** Names already known (the set's included workspaces and projects), by `workspaces/<id>` or `projects/<id>`. */
export type KnownNames = Map<string, string>;

/** A value of an attribute or a field as the diff prints it: strings quoted, booleans and numbers bare. */
function shown(value: string | boolean | null): string {
  if (value === null) return 'none';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** A workspace or project by name, linked to its page; one the token cannot read (or that is gone) is said so. */
function PlaceName({ kind, id, known }: { kind: 'workspace' | 'project'; id: string; known: KnownNames }) {
  const name = known.get(`${kind}s/${id}`);
  const workspace = useWorkspace(name === undefined && kind === 'workspace' ? id : null);
  const project = useProject(name === undefined && kind === 'project' ? id : null);
  const read = kind === 'workspace' ? workspace : project;
  if (name === undefined && read.error) return <span className="muted">a {kind} you cannot see</span>;
  return <Link to={`/${kind}s/${id}`}>{name ?? read.data?.data.attributes.name ?? '…'}</Link>;
}

/** "region (terraform) = "eu"": a whole variable, its value only when it is not sensitive. */
function WholeVariable({ variable }: { variable: ChangedVariable }) {
  return (
    <>
      <code>{variable.key}</code> ({variable.category}
      {variable.hcl ? ', HCL' : ''}) ={' '}
      {variable.sensitive ? <em>(sensitive)</em> : <code>{shown(variable.value)}</code>}
      {variable.description ? <> — {variable.description}</> : null}
    </>
  );
}

function ChangeWords({ change, known }: { change: VersionChange; known: KnownNames }) {
  switch (change.target) {
    case 'varset':
      if (change.before === null)
        return (
          <>
            {change.field}: <code>{shown(change.after)}</code>
          </>
        );
      if (change.after === null)
        return (
          <>
            {change.field} was <code>{shown(change.before)}</code>
          </>
        );
      return (
        <>
          {change.field}: <code>{shown(change.before)}</code> → <code>{shown(change.after)}</code>
        </>
      );
    case 'workspace':
    case 'project':
      return (
        <>
          {change.target === 'workspace' ? 'Workspace' : 'Project'}{' '}
          <PlaceName kind={change.target} id={change.id} known={known} /> {change.action}
        </>
      );
    case 'variable':
      if (change.action !== 'changed') {
        return change.action === 'added' ? (
          <>
            Variable added: <WholeVariable variable={change.after!} />
          </>
        ) : (
          <>
            Variable removed: <WholeVariable variable={change.before!} />
          </>
        );
      }
      return (
        <>
          Variable <code>{change.key}</code> ({change.category}): {change.field}
          {change.sensitive ? (
            <>
              {' '}
              <em>changed (sensitive)</em>
            </>
          ) : (
            <>
              : <code>{shown(change.before)}</code> → <code>{shown(change.after)}</code>
            </>
          )}
        </>
      );
  }
}

/** What a version changed (or what a restore would change), one line per change. */
export function VersionChanges({
  changes,
  known,
  label,
}: {
  changes: VersionChange[];
  known: KnownNames;
  label: string;
}) {
  if (changes.length === 0) return <p className="muted">Nothing changed.</p>;
  return (
    <ul className="changes" aria-label={label}>
      {changes.map((change, i) => (
        <li key={i}>
          <ChangeWords change={change} known={known} />
        </li>
      ))}
    </ul>
  );
}
