import type { Scope, VarsetReadScope } from '../auth/list-scopes.js';
import type { Target } from '../auth/actions.js';
import type { Project } from '../projects/model.js';
import type { Variable, VariableChanges, VariableOwner } from '../variables/model.js';
import type { Workspace } from '../workspaces/model.js';

/** A variable set of an organization, owned by the organization or by one of its projects. */
export interface Varset {
  id: string;
  organization_id: string;
  /** The organization's API id, which responses show. */
  organization_name: string;
  /** The owning project, or null for a set owned by the organization. */
  project_id: string | null;
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  created_at: string;
  updated_at: string;
}

export const NAME_MAX_LENGTH = 128;
export const DESCRIPTION_MAX_LENGTH = 512;

export const VARSET_INCLUDES = ['vars', 'workspaces', 'projects'] as const;
export type VarsetInclude = (typeof VARSET_INCLUDES)[number];

/** A workspace or project a set is assigned to: its id, and the resource when the response includes it. */
export interface AssignmentRef<T> {
  id: string;
  row?: T;
}

/** A variable of a set: its id, and the variable when the response shows its attributes. */
export interface VariableRef {
  id: string;
  row?: Variable;
}

/** A set with what every response shows of it. Its relationships carry their resources when asked for. */
export interface VarsetView {
  varset: Varset;
  workspaces: AssignmentRef<Workspace>[];
  projects: AssignmentRef<Project>[];
  variables: VariableRef[];
}

/** A set's relationships as the statement that read the set carries them: ids, and its variables' rows when `variableRows`. */
export interface VarsetRelations {
  workspaceIds: string[];
  projectIds: string[];
  variables: VariableRef[];
}

/** A set read with its relationships in one statement; they are decoded when first asked for (a cached response needs none). */
export interface VarsetRead {
  varset: Varset;
  relations: () => VarsetRelations;
}

/** A page of sets with the number of all matching ones. */
export interface VarsetList {
  views: VarsetView[];
  total: number;
}

export const VARSET_SORT_KEYS = [
  'name',
  'scope',
  'var-count',
  'workspace-count',
  'project-count',
  'updated-at',
] as const;
export type VarsetSortKey = (typeof VARSET_SORT_KEYS)[number];

/**
 * An organization's list filtered by the sets' flags and by a variable key a set defines (each
 * given must hold), and sorted by one key, then by name.
 */
export interface VarsetArrangement {
  filters: { global?: boolean; priority?: boolean; projectOwned?: boolean; varKey?: string };
  sort: { key: VarsetSortKey; descending: boolean } | undefined;
}

/** Which sets a list shows: all of an organization's (those the caller may read), or those a project or a workspace lists. */
export type VarsetScope =
  | { kind: 'organization'; organizationId: string; readable: Exclude<Scope<VarsetReadScope>, 'none'> }
  | { kind: 'project'; organizationId: string; projectId: string }
  | { kind: 'workspace'; organizationId: string; projectId: string; workspaceId: string };

/** A set that reaches a workspace, with every way it does: global, assigned to the workspace's project, assigned to the workspace. */
export interface ReachingVarset {
  id: string;
  name: string;
  ownerProjectId: string | null;
  global: boolean;
  priority: boolean;
  onProject: boolean;
  onWorkspace: boolean;
  /** The number of the set's newest version; null for a set no write has changed since versions were kept. */
  version: number | null;
}

export type AssignmentKind = 'workspaces' | 'projects';

/** A variable a create or update request adds to a set, and which of the request's it is (`vars[<i>]`). */
export interface VariableDefinition {
  changes: VariableChanges;
  at: string;
}

/** What a create or update request says of a set; absent members are not given (an update leaves them as they are). */
export interface VarsetCommand {
  name?: string;
  description?: string;
  global?: boolean;
  priority?: boolean;
  parent?: { type: 'organizations' | 'projects'; id: string };
  /** Replace the assignments when given. */
  workspaceIds?: string[];
  projectIds?: string[];
  variables: VariableDefinition[];
}

/** What a permission decision on a set needs to know of it; reads may also need where it is assigned. */
export function targetOf(varset: { organization_id: string; project_id: string | null; global: boolean }): Target {
  return {
    organizationId: varset.organization_id,
    projectId: varset.project_id,
    varset: { ownerProjectId: varset.project_id, global: varset.global },
  };
}

/** The owner of a set's variables. */
export const variablesOf = (varset: { id: string }): VariableOwner => ({ kind: 'varset', id: varset.id });

/** What a set's variables record while it is global: its organization (the global rule's unique index is on it). */
export const globalOrganizationOf = (varset: { organization_id: string; global: boolean }): string | null =>
  varset.global ? varset.organization_id : null;
