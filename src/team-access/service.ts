import type { Context } from '../context.js';
import {
  PROJECT_ACCESS,
  PROJECT_LEVELS,
  PROJECT_SETTINGS,
  PROJECT_TEAMS,
  PROJECT_VARIABLE_SETS,
  RUNS,
  SENTINEL_MOCKS,
  STATE_VERSIONS,
  VARIABLES,
  WORKSPACE_ACCESS,
  WORKSPACE_LEVELS,
  type ProjectPermissionSet,
  type ProjectWorkspacePermissionSet,
  type WorkspacePermissionSet,
} from '../auth/levels.js';
import { ensure, teamAccessListScope, type Target } from '../auth/policy.js';
import { isUniqueViolation } from '../db/connect.js';
import { newId, now } from '../ids.js';
import { badQueryParameter, invalidAttribute, notFound, unprocessable } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import { single, type Page, type Query } from '../jsonapi/query.js';
import { getProject } from '../projects/service.js';
import { getTeam } from '../teams/service.js';
import type { Team } from '../teams/model.js';
import { getWorkspace } from '../workspaces/service.js';
import {
  findTeamProject,
  findTeamWorkspace,
  listTeamProjects,
  listTeamWorkspaces,
  projectPermissionsOf,
  workspacePermissionsOf,
  type GrantContext,
  type TeamProject,
  type TeamWorkspace,
} from './store.js';

// ---------------------------------------------------------------------------------------
// Reading permission attributes

type Spec<T> = { [K in keyof T]: readonly string[] | 'boolean' };

const WORKSPACE_SPEC: Spec<WorkspacePermissionSet> = {
  runs: RUNS,
  variables: VARIABLES,
  'state-versions': STATE_VERSIONS,
  'sentinel-mocks': SENTINEL_MOCKS,
  'workspace-locking': 'boolean',
  'run-tasks': 'boolean',
};

const PROJECT_SPEC: Spec<ProjectPermissionSet> = { settings: PROJECT_SETTINGS, teams: PROJECT_TEAMS, 'variable-sets': PROJECT_VARIABLE_SETS };

const PROJECT_WORKSPACE_SPEC: Spec<ProjectWorkspacePermissionSet> = {
  create: 'boolean',
  move: 'boolean',
  locking: 'boolean',
  delete: 'boolean',
  runs: RUNS,
  variables: VARIABLES,
  'state-versions': STATE_VERSIONS,
  'sentinel-mocks': SENTINEL_MOCKS,
  'run-tasks': 'boolean',
};

/** The members of `spec` present in `source` (absent and null ones are left out), each checked against its allowed values. */
function readPermissions<T>(source: Record<string, unknown>, spec: Spec<T>, pointer: string): Partial<T> {
  const given: Record<string, unknown> = {};
  for (const [name, allowed] of Object.entries(spec) as [string, readonly string[] | 'boolean'][]) {
    const value = source[name];
    if (value === undefined || value === null) continue;
    if (allowed === 'boolean' ? typeof value !== 'boolean' : typeof value !== 'string' || !allowed.includes(value)) {
      const expected = allowed === 'boolean' ? 'true or false' : `one of ${allowed.join(', ')}`;
      throw invalidAttribute(`${name} must be ${expected}`, `${pointer}/${name}`);
    }
    given[name] = value;
  }
  return given as Partial<T>;
}

function readObject(input: ResourceInput, name: string): Record<string, unknown> {
  const value = input.attributes[name];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidAttribute(`${name} must be an object`, input.attributePointer(name));
  return value as Record<string, unknown>;
}

function readAccess<A extends string>(input: ResourceInput, allowed: readonly A[], required: boolean): A | undefined {
  const access = input.string('access');
  if (access === undefined) {
    if (required) throw invalidAttribute(`access can't be blank; it is one of ${allowed.join(', ')}`, input.attributePointer('access'));
    return undefined;
  }
  if (!(allowed as readonly string[]).includes(access)) throw invalidAttribute(`access must be one of ${allowed.join(', ')}`, input.attributePointer('access'));
  return access as A;
}

/**
 * The complete permission set of a grant: a fixed level's own set (a fine-grained value that
 * disagrees with it is refused), or for `custom` the given values over `start`.
 */
function resolve<T extends object>(access: string, fixed: T | undefined, start: T, given: Partial<T>, pointer: string): T {
  if (fixed === undefined) return { ...start, ...given };
  for (const [name, value] of Object.entries(given)) {
    if (fixed[name as keyof T] !== value) throw invalidAttribute(`${name} can only be set when access is "custom" (access "${access}" grants ${String(fixed[name as keyof T])})`, `${pointer}/${name}`);
  }
  return fixed;
}

function requiredIdentifier(input: ResourceInput, name: string, type: string): string {
  const id = input.identifier(name, type);
  if (id === undefined) throw invalidAttribute(`the ${name} relationship is required`, `/data/relationships/${name}`);
  return id;
}

const alreadyGranted = (what: string) => invalidAttribute(`Team already has access to this ${what}`, '/data/relationships/team');
const ownersHaveAll = () => unprocessable('the owners team has every permission already; its access cannot be changed', '/data/relationships/team');

async function insertOnce(what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyGranted(what);
    throw error;
  }
}

/** A team of the resource's organization, visible to the caller; anything else is a 404. */
async function teamOf(ctx: Context, teamId: string, organizationId: string): Promise<Team> {
  const { team } = await getTeam(ctx, teamId);
  if (team.organization_id !== organizationId) throw notFound();
  return team;
}

function grantTarget(grant: GrantContext & { team_id: string }, workspaceId?: string): Target {
  return {
    organizationId: grant.organization_id,
    projectId: grant.project_id,
    ...(workspaceId ? { workspaceId } : {}),
    team: { id: grant.team_id, visibility: grant.team_visibility },
  };
}

function listFilters(query: Query, resourceFilter: string): { teamId: string | undefined; resourceId: string | undefined } {
  const teamId = single(query, 'filter[team][id]') || undefined;
  const resourceId = single(query, resourceFilter) || undefined;
  if (teamId === undefined && resourceId === undefined) throw badQueryParameter(resourceFilter, `${resourceFilter} (or filter[team][id]) is required`);
  return { teamId, resourceId };
}

// ---------------------------------------------------------------------------------------
// Team access to workspaces

const workspaceColumns = (p: WorkspacePermissionSet) => ({
  runs: p.runs,
  variables: p.variables,
  state_versions: p['state-versions'],
  sentinel_mocks: p['sentinel-mocks'],
  workspace_locking: p['workspace-locking'],
  run_tasks: p['run-tasks'],
});

export async function createTeamWorkspace(ctx: Context, body: unknown): Promise<TeamWorkspace> {
  const input = ResourceInput.read(body, 'team-workspaces');
  const teamId = requiredIdentifier(input, 'team', 'teams');
  const workspaceId = requiredIdentifier(input, 'workspace', 'workspaces');
  const { workspace } = await getWorkspace(ctx, { id: workspaceId });
  const team = await teamOf(ctx, teamId, workspace.organization_id);
  ensure(ctx.subject, 'team-workspace:manage', grantTarget({ ...workspace, team_id: team.id, team_visibility: team.visibility }, workspace.id));
  if (team.is_owners) throw ownersHaveAll();
  const access = readAccess(input, WORKSPACE_ACCESS, true)!;
  const given = readPermissions(input.attributes, WORKSPACE_SPEC, '/data/attributes');
  const permissions = resolve(access, access === 'custom' ? undefined : WORKSPACE_LEVELS[access], WORKSPACE_LEVELS.custom, given, '/data/attributes');
  const grant: TeamWorkspace = { id: newId('tws'), team_id: team.id, workspace_id: workspace.id, access, ...workspaceColumns(permissions), created_at: now() };
  await insertOnce('workspace', () => ctx.store.db.insertInto('team_workspaces').values(grant).execute());
  return grant;
}

async function getTeamWorkspaceFor(ctx: Context, id: string, action: 'team-workspace:read' | 'team-workspace:manage') {
  const found = await findTeamWorkspace(ctx.store.db, id);
  if (!found) throw notFound();
  const { organization_id, project_id, team_visibility, ...grant } = found;
  ensure(ctx.subject, action, grantTarget(found, found.workspace_id));
  return grant;
}

export const getTeamWorkspace = (ctx: Context, id: string): Promise<TeamWorkspace> => getTeamWorkspaceFor(ctx, id, 'team-workspace:read');

export async function updateTeamWorkspace(ctx: Context, id: string, body: unknown): Promise<TeamWorkspace> {
  const input = ResourceInput.read(body, 'team-workspaces');
  const current = await getTeamWorkspaceFor(ctx, id, 'team-workspace:manage');
  const access = readAccess(input, WORKSPACE_ACCESS, false) ?? current.access;
  const given = readPermissions(input.attributes, WORKSPACE_SPEC, '/data/attributes');
  const permissions = resolve(access, access === 'custom' ? undefined : WORKSPACE_LEVELS[access], workspacePermissionsOf(current), given, '/data/attributes');
  const changes = { access, ...workspaceColumns(permissions) };
  await ctx.store.db.updateTable('team_workspaces').set(changes).where('id', '=', id).execute();
  return { ...current, ...changes };
}

export async function deleteTeamWorkspace(ctx: Context, id: string): Promise<void> {
  await getTeamWorkspaceFor(ctx, id, 'team-workspace:manage');
  await ctx.store.db.deleteFrom('team_workspaces').where('id', '=', id).execute();
}

/** Grants on one workspace (`filter[workspace][id]`), of one team (`filter[team][id]`), or both. */
export async function listTeamWorkspaceGrants(ctx: Context, query: Query, page: Page) {
  const { teamId, resourceId } = listFilters(query, 'filter[workspace][id]');
  if (resourceId !== undefined) {
    const { workspace } = await getWorkspace(ctx, { id: resourceId });
    const target = { organizationId: workspace.organization_id, projectId: workspace.project_id, workspaceId: workspace.id };
    const scope = teamAccessListScope(ctx.subject, 'team-workspace:read', target);
    if (scope === 'none') throw notFound();
    return listTeamWorkspaces(ctx.store.db, { teamId, resourceId, scope }, page);
  }
  const { team } = await getTeam(ctx, teamId!, 'team:read-access');
  return listTeamWorkspaces(ctx.store.db, { teamId: team.id, scope: 'all' }, page);
}

// ---------------------------------------------------------------------------------------
// Team access to projects

const projectColumns = (project: ProjectPermissionSet, workspace: ProjectWorkspacePermissionSet) => ({
  settings: project.settings,
  teams: project.teams,
  variable_sets: project['variable-sets'],
  workspace_create: workspace.create,
  workspace_move: workspace.move,
  workspace_locking: workspace.locking,
  workspace_delete: workspace.delete,
  workspace_runs: workspace.runs,
  workspace_variables: workspace.variables,
  workspace_state_versions: workspace['state-versions'],
  workspace_sentinel_mocks: workspace['sentinel-mocks'],
  workspace_run_tasks: workspace['run-tasks'],
});

function resolveProject(input: ResourceInput, access: TeamProject['access'], start: ReturnType<typeof projectPermissionsOf>) {
  const fixed = access === 'custom' ? undefined : PROJECT_LEVELS[access];
  const projectPointer = input.attributePointer('project-access');
  const workspacePointer = input.attributePointer('workspace-access');
  const project = resolve(access, fixed?.project, start.project, readPermissions(readObject(input, 'project-access'), PROJECT_SPEC, projectPointer), projectPointer);
  const workspace = resolve(
    access,
    fixed?.workspace,
    start.workspace,
    readPermissions(readObject(input, 'workspace-access'), PROJECT_WORKSPACE_SPEC, workspacePointer),
    workspacePointer,
  );
  return projectColumns(project, workspace);
}

export async function createTeamProject(ctx: Context, body: unknown): Promise<TeamProject> {
  const input = ResourceInput.read(body, 'team-projects');
  const teamId = requiredIdentifier(input, 'team', 'teams');
  const projectId = requiredIdentifier(input, 'project', 'projects');
  const { project } = await getProject(ctx, projectId);
  const team = await teamOf(ctx, teamId, project.organization_id);
  ensure(ctx.subject, 'team-project:manage', grantTarget({ organization_id: project.organization_id, project_id: project.id, team_id: team.id, team_visibility: team.visibility }));
  if (team.is_owners) throw ownersHaveAll();
  const access = readAccess(input, PROJECT_ACCESS, true)!;
  const grant: TeamProject = { id: newId('tprj'), team_id: team.id, project_id: project.id, access, ...resolveProject(input, access, PROJECT_LEVELS.custom), created_at: now() };
  await insertOnce('project', () => ctx.store.db.insertInto('team_projects').values(grant).execute());
  return grant;
}

async function getTeamProjectFor(ctx: Context, id: string, action: 'team-project:read' | 'team-project:manage') {
  const found = await findTeamProject(ctx.store.db, id);
  if (!found) throw notFound();
  const { organization_id, team_visibility, ...grant } = found;
  ensure(ctx.subject, action, grantTarget(found));
  return grant;
}

export const getTeamProject = (ctx: Context, id: string): Promise<TeamProject> => getTeamProjectFor(ctx, id, 'team-project:read');

export async function updateTeamProject(ctx: Context, id: string, body: unknown): Promise<TeamProject> {
  const input = ResourceInput.read(body, 'team-projects');
  const current = await getTeamProjectFor(ctx, id, 'team-project:manage');
  const access = readAccess(input, PROJECT_ACCESS, false) ?? current.access;
  const changes = { access, ...resolveProject(input, access, projectPermissionsOf(current)) };
  await ctx.store.db.updateTable('team_projects').set(changes).where('id', '=', id).execute();
  return { ...current, ...changes };
}

export async function deleteTeamProject(ctx: Context, id: string): Promise<void> {
  await getTeamProjectFor(ctx, id, 'team-project:manage');
  await ctx.store.db.deleteFrom('team_projects').where('id', '=', id).execute();
}

/** Grants on one project (`filter[project][id]`), of one team (`filter[team][id]`), or both. */
export async function listTeamProjectGrants(ctx: Context, query: Query, page: Page) {
  const { teamId, resourceId } = listFilters(query, 'filter[project][id]');
  if (resourceId !== undefined) {
    const { project } = await getProject(ctx, resourceId);
    const scope = teamAccessListScope(ctx.subject, 'team-project:read', { organizationId: project.organization_id, projectId: project.id });
    if (scope === 'none') throw notFound();
    return listTeamProjects(ctx.store.db, { teamId, resourceId, scope }, page);
  }
  const { team } = await getTeam(ctx, teamId!, 'team:read-access');
  return listTeamProjects(ctx.store.db, { teamId: team.id, scope: 'all' }, page);
}
