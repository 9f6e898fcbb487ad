import { can, userTokenRefused } from './decisions.js';
import type { Target } from './actions.js';
import type { Subject } from './subject.js';
import { organizationWideVariableRead, teamVarsetScope, type VarsetReadScope } from './team-rights.js';

export type { VarsetReadScope };

// Visibility in lists: the same rules as `can`, in a form a store turns into one SQL condition.

/** The organizations a list shows: only those listed, or all but those listed. */
export function organizationListScope(subject: Subject): { only: string[] } | { except: string[] } {
  return subject.kind === 'site-admin' ? { except: [...subject.refusedBy] } : { only: [subject.organizationId] };
}

/** A site-admin's scope of a list in an organization: everything, unless the organization refuses its token. */
function siteAdminScope(subject: Subject & { kind: 'site-admin' }, organizationId: string): 'all' | 'none' {
  return userTokenRefused(subject, organizationId) ? 'none' : 'all';
}

/** Which of an organization's rows a list shows: all of them, or those matching the ids. */
export type Scope<T> = 'all' | 'none' | T;

/** Workspaces: those granted directly, and every workspace of the granted projects. */
export function workspaceListScope(
  subject: Subject,
  organizationId: string,
): Scope<{ workspaceIds: string[]; projectIds: string[] }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization') return 'all';
  const team = subject.rights;
  if (team.manageWorkspaces || team.readWorkspaces) return 'all';
  return { workspaceIds: [...team.workspaces.keys()], projectIds: [...team.projects.keys()] };
}

/** Projects: those granted, and those holding a granted workspace. */
export function projectListScope(subject: Subject, organizationId: string): Scope<{ projectIds: string[] }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization') return 'all';
  const team = subject.rights;
  if (team.manageWorkspaces || team.readProjects || team.readWorkspaces) return 'all';
  const ids = new Set(team.projects.keys());
  for (const grant of team.workspaces.values()) ids.add(grant.projectId);
  return { projectIds: [...ids] };
}

/** Projects on which the subject may do `action`: all of the organization's, or those listed. */
export function projectActionScope(
  subject: Subject,
  organizationId: string,
  action: 'project:update' | 'workspaces:create',
): Scope<{ projectIds: string[] }> {
  // An organization-wide grant (manage projects, manage workspaces) covers every project.
  if (can(subject, action, { organizationId })) return 'all';
  if (subject.kind !== 'team' || subject.organizationId !== organizationId) return 'none';
  return {
    projectIds: [...subject.rights.projects.keys()].filter((projectId) =>
      can(subject, action, { organizationId, projectId }),
    ),
  };
}

/** Teams: every team for owners and the organization token; otherwise the visible ones and the caller's own. */
export function teamListScope(subject: Subject, organizationId: string): Scope<{ ownTeamId: string }> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization' || subject.rights.owners || subject.rights.accessSecretTeams) return 'all';
  return { ownTeamId: subject.teamId };
}

/**
 * Team access rows of one workspace (`team-workspace:read`) or project (`team-project:read`):
 * all of them for those who manage its team access, otherwise only the caller's own team's.
 */
export function teamAccessListScope(
  subject: Subject,
  action: 'team-workspace:read' | 'team-project:read',
  target: Target,
): Scope<{ teamId: string }> {
  if (can(subject, action, { ...target, team: undefined })) return 'all';
  if (subject.kind === 'team' && subject.organizationId === target.organizationId) return { teamId: subject.teamId };
  return 'none';
}

export function varsetListScope(subject: Subject, organizationId: string): Scope<VarsetReadScope> {
  if (subject.kind === 'site-admin') return siteAdminScope(subject, organizationId);
  if (subject.organizationId !== organizationId) return 'none';
  if (subject.kind === 'organization' || organizationWideVariableRead(subject.rights)) return 'all';
  return teamVarsetScope(subject.rights);
}
