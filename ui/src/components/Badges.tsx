import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useProject } from '../api/hooks';
import { related, type Varset } from '../api/types';

/** A project's name, read through the API (cached), linked to its page. */
export function ProjectName({ id }: { id: string }) {
  const project = useProject(id);
  if (project.error) return <span className="muted">a project you cannot see</span>;
  return <Link to={`/projects/${id}`}>{project.data?.data.attributes.name ?? '…'}</Link>;
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** What a set holds and where it applies: a global set applies everywhere, whatever it is assigned to. */
export function varsetCounts(varset: Varset): string {
  const a = varset.attributes;
  const reach = a.global
    ? 'every workspace of the organization'
    : `${count(a['workspace-count'], 'workspace')} · ${count(a['project-count'], 'project')}`;
  return `${count(a['var-count'], 'variable')} · ${reach}`;
}

/** What kind of set it is: global, priority, owned by a project. */
export function VarsetBadges({ varset }: { varset: Varset }) {
  const parent = related(varset, 'parent');
  return (
    <span className="badges">
      {varset.attributes.global && <span className="badge global">Global</span>}
      {varset.attributes.priority && <span className="badge priority">Priority</span>}
      {parent?.type === 'projects' && (
        <span className="badge owner">
          Owned by project <ProjectName id={parent.id} />
        </span>
      )}
    </span>
  );
}

/** A set as the lists of sets show it: its name linked to its page and its badges, then what the list adds. */
export function VarsetCard({ varset, children }: { varset: Varset; children?: ReactNode }) {
  return (
    <li>
      <div className="card-head">
        <Link to={`/varsets/${varset.id}`}>{varset.attributes.name}</Link>
        <VarsetBadges varset={varset} />
      </div>
      {children}
    </li>
  );
}
