import { Forbidden, NotFound, TokenRefused } from '../common/errors.js';
import type { Action, Target } from './actions.js';
import type { Subject, TeamRights } from './subject.js';
import {
  organizationWideVariableRead,
  otherTeamThanOwners,
  projectVisible,
  teamVisible,
  varsetReadable,
  varsetWritable,
  workspaceRights,
} from './team-rights.js';

/**
 * Every permission decision of varsetd is made here. Services ask "may this subject do
 * this action on this resource"; a refusal looks exactly like a missing resource (404).
 * Everything a decision needs was loaded into the subject at authentication, so `can` is
 * pure and synchronous. The model is HCP Terraform's (see docs/permissions.md):
 *
 * - a site-admin token may do everything, and only it creates organizations, except in an
 *   organization that turned user tokens off (`user-tokens-enabled`): there HCP Terraform
 *   refuses a user's token, which the site-admin token stands for, with a 401;
 * - nothing of another organization is ever visible to a team or organization token;
 * - the owners team has every permission in its organization;
 * - the organization token may do what owners may, except queue runs, create configuration
 *   versions or comments, and change or delete the organization;
 * - any other team has what its organization access flags, team-workspace and team-project
 *   grants give it, the greatest of them where several reach one workspace.
 */

/** Organization-token refusals: HCP Terraform keeps these for users and teams. */
const ORGANIZATION_TOKEN_DENIED: ReadonlySet<Action> = new Set<Action>([
  'organization:update',
  'organization:delete',
  'run:create',
  'run:apply',
  'configuration-version:create',
  'comment:create',
]);

export function can(subject: Subject, action: Action, target: Target = {}): boolean {
  if (subject.kind === 'site-admin') return !userTokenRefused(subject, target.organizationId);
  if (action === 'organizations:list') return true;
  if (action === 'organizations:create') return false;
  // Fail closed: an action that names no organization, or another one, is refused.
  if (target.organizationId === undefined || target.organizationId !== subject.organizationId) return false;
  if (subject.kind === 'organization') return !ORGANIZATION_TOKEN_DENIED.has(action);
  return teamCan(subject.teamId, subject.rights, action, target);
}

/**
 * Throws as a missing resource (`NotFound`) unless the subject may do the action;
 * `TokenRefused` when the organization refuses the subject's kind of token outright.
 */
export function ensure(subject: Subject, action: Action, target: Target = {}): void {
  if (userTokenRefused(subject, target.organizationId)) throw new TokenRefused();
  if (!can(subject, action, target)) throw new NotFound();
}

/**
 * Sensitive values in clear, which only the site administrator reads (to move an organization
 * to another varsetd): any other token is told so in words (403), before anything is looked up,
 * so the refusal says nothing of what exists.
 */
export function ensureReadsSensitiveValues(subject: Subject): void {
  if (subject.kind !== 'site-admin')
    throw new Forbidden('only a site-admin token reads sensitive values; this token is not one');
}

/** Whether the organization turned user tokens off and the subject holds one (the site-admin token). */
export function userTokenRefused(subject: Subject, organizationId: string | undefined): boolean {
  return subject.kind === 'site-admin' && organizationId !== undefined && subject.refusedBy.has(organizationId);
}

function teamCan(teamId: string, team: TeamRights, action: Action, target: Target): boolean {
  const workspace = () =>
    target.workspaceId === undefined ? null : workspaceRights(team, target.workspaceId, target.projectId ?? null);
  const project = () => (target.projectId ? team.projects.get(target.projectId) : undefined);
  const ownTeam = target.team?.id === teamId;
  switch (action) {
    case 'organization:read':
    case 'teams:list':
      return true;
    case 'organization:update':
    case 'organization:delete':
    case 'organization-token:manage':
    case 'varset:read-deleted':
    case 'varset-notifications:manage':
    case 'organization:import':
      return team.owners;
    case 'teams:create':
    case 'team-tokens:list':
      return team.manageTeams;
    case 'team:update':
    case 'team:delete':
    case 'team-token:manage':
      return team.owners || (team.manageTeams && otherTeamThanOwners(target) && teamVisible(teamId, team, target));
    case 'team:update-organization-access':
      return (
        team.owners ||
        (team.manageOrganizationAccess && otherTeamThanOwners(target) && teamVisible(teamId, team, target))
      );
    case 'team:read':
      return teamVisible(teamId, team, target);
    case 'team-token:read':
      return (
        team.owners || ownTeam || (team.manageTeams && otherTeamThanOwners(target) && teamVisible(teamId, team, target))
      );
    case 'team:read-access':
      return team.owners || ownTeam;
    case 'team-workspace:read':
      return ownTeam || (workspace()?.admin ?? false);
    case 'team-workspace:manage':
      return (workspace()?.admin ?? false) && teamVisible(teamId, team, target);
    case 'team-project:read':
      return ownTeam || team.manageProjects || (project()?.teams ?? 0) >= 1;
    case 'team-project:manage':
      return (team.manageProjects || project()?.teams === 2) && teamVisible(teamId, team, target);
    case 'projects:create':
      return team.manageProjects;
    case 'project:read':
      return target.projectId ? projectVisible(team, target.projectId) : false;
    case 'project:update':
      return team.manageProjects || (project()?.settings ?? 0) >= 1;
    case 'project:delete':
      return team.manageProjects || project()?.settings === 2;
    case 'project:read-variables':
      return organizationWideVariableRead(team) || (project()?.workspaces.variables ?? 0) >= 1;
    case 'workspaces:create':
      return team.manageWorkspaces || (project()?.workspaces.create ?? false);
    case 'workspace:move':
      return team.manageProjects || (project()?.workspaces.move ?? false);
    case 'workspace:read':
    case 'run:read':
    case 'configuration-version:read':
    case 'comment:read':
      return workspace() !== null;
    case 'workspace:update':
      return workspace()?.admin ?? false;
    case 'workspace:delete':
      return workspace()?.delete ?? false;
    case 'workspace:lock':
      return workspace()?.lock ?? false;
    case 'workspace:force-unlock':
      return workspace()?.admin ?? false;
    case 'workspace:manage-run-tasks':
      return workspace()?.runTasks ?? false;
    case 'workspace:read-variables':
      return (workspace()?.variables ?? 0) >= 1;
    case 'workspace:write-variables':
      return workspace()?.variables === 2;
    case 'run:create':
    case 'configuration-version:create':
    case 'comment:create':
      return (workspace()?.runs ?? 0) >= 2;
    case 'run:apply':
      return workspace()?.runs === 3;
    case 'varset:read':
      return target.varset !== undefined && varsetReadable(team, target.varset);
    case 'varsets:create':
    case 'varset:update':
    case 'varset:delete':
      return target.varset !== undefined && varsetWritable(team, target.varset);
    case 'organizations:list':
    case 'organizations:create':
    // HCP Terraform answers the audit trail to the organization's token only, never to a team's.
    case 'audit-trail:read':
    case 'tokens:list':
    case 'site-admin-tokens:manage':
      return false;
  }
}
