import { compiledOnce } from '../db/compiled-once.js';
import type { Db, Trx } from '../db/transaction.js';
import type {
  ProjectAccess,
  ProjectSettings,
  ProjectTeams,
  ProjectVariableSets,
  Runs,
  Variables,
  WorkspaceAccess,
} from './levels.js';
import { fetchPage } from '../db/page.js';
import { contains } from '../db/search.js';
import type { Page } from '../common/page.js';
import type { Token, TokenOwner } from './model.js';

const COLUMNS = [
  'tokens.id',
  'tokens.kind',
  'tokens.organization_id',
  'tokens.team_id',
  'tokens.description',
  'tokens.created_at',
  'tokens.expired_at',
  'tokens.legacy',
  'tokens.created_by_kind',
  'tokens.created_by_id',
  'tokens.last_used_at',
] as const;

const findVersion = compiledOnce((db) => db.selectFrom('credentials_version').select('version'));

/** The number the database raises whenever a row that a token's subject is made of changes (migration 0015). */
export async function findCredentialsVersion(db: Db): Promise<number> {
  const [row] = await findVersion(db);
  return Number(row!.version);
}

/**
 * The token with this hash, with its team's organization access (null for a token of no
 * team) and the credentials version it was read at: what a request with a token not yet known
 * to the process runs first, so it is built and compiled once. A site-admin token
 * comes as one row per organization that refuses it (`refusing_organization_id`, null on the
 * one row when none does), found by the index on `user_tokens_enabled`, so that those cost no
 * statement of their own.
 */
export const findTokenByHash = compiledOnce((db, tokenHash: string) =>
  db
    .selectFrom('tokens')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .leftJoin('organizations as owner', 'owner.id', 'tokens.organization_id')
    .leftJoin('organizations', (join) =>
      join.on('tokens.kind', '=', 'site-admin').on('organizations.user_tokens_enabled', '=', false),
    )
    .innerJoin('credentials_version', (join) => join.onTrue())
    .select([
      'credentials_version.version as credentials_version',
      'organizations.id as refusing_organization_id',
      'tokens.id',
      'tokens.kind',
      'tokens.organization_id',
      'tokens.team_id',
      'tokens.description',
      'owner.name as organization_name',
      'teams.name as team_name',
      'tokens.expired_at',
      'tokens.last_used_at',
      'teams.is_owners',
      'teams.manage_workspaces',
      'teams.manage_projects',
      'teams.read_workspaces',
      'teams.read_projects',
      'teams.other_access',
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
export async function findTeamGrants(
  db: Db,
  teamId: string,
): Promise<{ workspaces: WorkspaceGrant[]; projects: ProjectGrant[] }> {
  const [workspaces, projects] = await Promise.all([
    db
      .selectFrom('team_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'team_workspaces.workspace_id')
      .select([
        'team_workspaces.workspace_id',
        'workspaces.project_id',
        'team_workspaces.access',
        'team_workspaces.runs',
        'team_workspaces.variables',
        'team_workspaces.workspace_locking',
        'team_workspaces.run_tasks',
      ])
      .where('team_workspaces.team_id', '=', teamId)
      .execute(),
    db
      .selectFrom('team_projects')
      .select([
        'project_id',
        'access',
        'settings',
        'teams',
        'variable_sets',
        'workspace_create',
        'workspace_move',
        'workspace_delete',
        'workspace_runs',
        'workspace_variables',
        'workspace_locking',
        'workspace_run_tasks',
      ])
      .where('team_id', '=', teamId)
      .execute(),
  ]);
  return { workspaces, projects };
}

/** The legacy token of a team or an organization: the one the singular endpoints manage. */
export function findOwnedToken(db: Db, owner: TokenOwner): Promise<Token | undefined> {
  const query = db
    .selectFrom('tokens')
    .select(COLUMNS)
    .where('tokens.kind', '=', owner.kind)
    .where('tokens.legacy', '=', true);
  return (
    owner.kind === 'team'
      ? query.where('tokens.team_id', '=', owner.teamId)
      : query.where('tokens.organization_id', '=', owner.organizationId)
  ).executeTakeFirst();
}

/** Deletes the owner's legacy token; answers whether there was one. */
export async function deleteOwnedToken(db: Db, owner: TokenOwner): Promise<boolean> {
  const query = db.deleteFrom('tokens').where('kind', '=', owner.kind).where('legacy', '=', true);
  const { numDeletedRows } = await (
    owner.kind === 'team'
      ? query.where('team_id', '=', owner.teamId)
      : query.where('organization_id', '=', owner.organizationId)
  ).executeTakeFirstOrThrow();
  return Number(numDeletedRows) > 0;
}

/** A token of any kind by its id, or undefined. */
export function findTokenById(db: Db, id: string): Promise<Token | undefined> {
  return db.selectFrom('tokens').select(COLUMNS).where('tokens.id', '=', id).executeTakeFirst();
}

/** A token with the names of its organization and team (null for a token of none). */
export type NamedToken = Token & { organization_name: string | null; team_name: string | null };

/** Every token, or those of one organization, oldest first, with the names of their owners. */
export async function listTokens(db: Db, organizationId: string | undefined): Promise<NamedToken[]> {
  let query = db
    .selectFrom('tokens')
    .leftJoin('organizations', 'organizations.id', 'tokens.organization_id')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .select(COLUMNS)
    .select(['organizations.name as organization_name', 'teams.name as team_name']);
  if (organizationId !== undefined) query = query.where('tokens.organization_id', '=', organizationId);
  return query.orderBy('tokens.created_at').orderBy('tokens.id').execute();
}

/** A team token by its id, or undefined (another kind of token is not one). */
export function findTeamTokenById(db: Db, id: string): Promise<Token | undefined> {
  return db
    .selectFrom('tokens')
    .select(COLUMNS)
    .where('tokens.id', '=', id)
    .where('tokens.kind', '=', 'team')
    .executeTakeFirst();
}

export async function deleteTokenById(db: Db, id: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('tokens').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(numDeletedRows) > 0;
}

/** Whether the team has a described token with this description. */
export async function teamTokenDescriptionTaken(db: Db, teamId: string, description: string): Promise<boolean> {
  const row = await db
    .selectFrom('tokens')
    .select('id')
    .where('team_id', '=', teamId)
    .where('legacy', '=', false)
    .where('description', '=', description)
    .executeTakeFirst();
  return row !== undefined;
}

export type TeamTokenSort = 'team-name' | 'created-by' | 'expired-at' | 'last-used-at' | 'created-at';

export interface TeamTokenQuery {
  /** Part of the team's name, ignoring case. */
  teamName: string | undefined;
  /** One team's tokens only. */
  teamId: string | undefined;
  sort: TeamTokenSort;
  descending: boolean;
}

/** The team tokens of an organization, one page, with how many there are. */
export async function listTeamTokens(
  db: Db,
  organizationId: string,
  query: TeamTokenQuery,
  page: Page,
): Promise<{ rows: Token[]; total: number }> {
  let base = db
    .selectFrom('tokens')
    .innerJoin('teams', 'teams.id', 'tokens.team_id')
    .where('tokens.kind', '=', 'team')
    .where('tokens.organization_id', '=', organizationId);
  if (query.teamId !== undefined) base = base.where('tokens.team_id', '=', query.teamId);
  if (query.teamName !== undefined) base = base.where((eb) => contains(eb.ref('teams.search_name'), query.teamName!));
  const column = (
    {
      'team-name': 'teams.search_name',
      'created-by': 'tokens.created_by_id',
      'expired-at': 'tokens.expired_at',
      'last-used-at': 'tokens.last_used_at',
      'created-at': 'tokens.created_at',
    } as const
  )[query.sort];
  const direction = query.descending ? 'desc' : 'asc';
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy(column, direction).orderBy('tokens.id', direction));
}

/** Records that the token was used now. */
export async function touchToken(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}

export async function insertToken(trx: Trx, token: Token, tokenHash: string): Promise<void> {
  await trx
    .insertInto('tokens')
    .values({ ...token, token_hash: tokenHash })
    .execute();
}

export async function tokenHashExists(db: Db, tokenHash: string): Promise<boolean> {
  return (
    (await db.selectFrom('tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst()) !== undefined
  );
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
