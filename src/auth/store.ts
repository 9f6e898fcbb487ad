import { compiledOnce } from '../db/compiled-once.js';
import type { Db, Trx } from '../db/transaction.js';
import type { ProjectAccess, ProjectSettings, ProjectTeams, ProjectVariableSets, Runs, Variables, WorkspaceAccess } from './levels.js';
import type { Token, TokenOwner } from './model.js';

const COLUMNS = ['id', 'kind', 'organization_id', 'team_id', 'description', 'created_at', 'expired_at'] as const;

/**
 * The token with this hash, with its team's organization access (null for a token of no
 * team): what every request runs first, so it is built and compiled once.
 */
export const findTokenByHash = compiledOnce((db, tokenHash: string) =>
  db
    .selectFrom('tokens')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.organization_id',
      'tokens.team_id',
      'tokens.expired_at',
      'teams.is_owners',
      'teams.manage_workspaces',
      'teams.manage_projects',
      'teams.read_workspaces',
      'teams.read_projects',
    ])
    .where('tokens.token_hash', '=', tokenHash),
);

export interface WorkspaceGrant {
  workspace_id: string;
  /** The project the workspace is in. */
  project_id: string;
  access: WorkspaceAccess;
  runs: Runs;
  variables: Variables;
  workspace_locking: boolean;
  run_tasks: boolean;
}

export interface ProjectGrant {
  project_id: string;
  access: ProjectAccess;
  settings: ProjectSettings;
  teams: ProjectTeams;
  variable_sets: ProjectVariableSets;
  workspace_create: boolean;
  workspace_move: boolean;
  workspace_delete: boolean;
  workspace_runs: Runs;
  workspace_variables: Variables;
  workspace_locking: boolean;
  workspace_run_tasks: boolean;
}

/** A team's workspace and project grants: two statements, run together. */
export async function findTeamGrants(db: Db, teamId: string): Promise<{ workspaces: WorkspaceGrant[]; projects: ProjectGrant[] }> {
  const [workspaces, projects] = await Promise.all([
    db
      .selectFrom('team_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'team_workspaces.workspace_id')
      .select(['team_workspaces.workspace_id', 'workspaces.project_id', 'team_workspaces.access', 'team_workspaces.runs', 'team_workspaces.variables', 'team_workspaces.workspace_locking', 'team_workspaces.run_tasks'])
      .where('team_workspaces.team_id', '=', teamId)
      .execute(),
    db
      .selectFrom('team_projects')
      .select(['project_id', 'access', 'settings', 'teams', 'variable_sets', 'workspace_create', 'workspace_move', 'workspace_delete', 'workspace_runs', 'workspace_variables', 'workspace_locking', 'workspace_run_tasks'])
      .where('team_id', '=', teamId)
      .execute(),
  ]);
  return { workspaces, projects };
}

export function findOwnedToken(db: Db, owner: TokenOwner): Promise<Token | undefined> {
  const query = db.selectFrom('tokens').select(COLUMNS).where('kind', '=', owner.kind);
  return (owner.kind === 'team' ? query.where('team_id', '=', owner.teamId) : query.where('organization_id', '=', owner.organizationId)).executeTakeFirst();
}

/** Deletes the owner's token; answers whether there was one. */
export async function deleteOwnedToken(db: Db, owner: TokenOwner): Promise<boolean> {
  const query = db.deleteFrom('tokens').where('kind', '=', owner.kind);
  const { numDeletedRows } = await (owner.kind === 'team' ? query.where('team_id', '=', owner.teamId) : query.where('organization_id', '=', owner.organizationId)).executeTakeFirstOrThrow();
  return Number(numDeletedRows) > 0;
}

export async function insertToken(trx: Trx, token: Token, tokenHash: string): Promise<void> {
  await trx.insertInto('tokens').values({ ...token, token_hash: tokenHash }).execute();
}

export async function tokenHashExists(db: Db, tokenHash: string): Promise<boolean> {
  return (await db.selectFrom('tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst()) !== undefined;
}

export async function siteAdminTokenExists(db: Db): Promise<boolean> {
  return (await db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirst()) !== undefined;
}

/**
 * Deletes the site-admin tokens with this description, but the one with `keptHash`; answers the
 * hashes of those it deleted. Only site-admin tokens: a team's or an organization's token may
 * carry any description its client chose.
 */
export async function deleteSiteAdminTokens(trx: Trx, description: string, keptHash: string): Promise<string[]> {
  const deleted = await trx
    .deleteFrom('tokens')
    .where('kind', '=', 'site-admin')
    .where('description', '=', description)
    .where('token_hash', '<>', keptHash)
    .returning('token_hash')
    .execute();
  return deleted.map((row) => row.token_hash);
}
