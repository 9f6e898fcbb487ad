import { sql } from 'kysely';
import { ENFORCED_ORGANIZATION_ACCESS, ORGANIZATION_ACCESS, type OrganizationAccessFlag } from '../auth/levels.js';
import type { Scope } from '../auth/list-scopes.js';
import { fromJson } from '../db/json.js';
import { fetchPage } from '../db/page.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import { ORGANIZATION_COLUMNS, splitOrganization, type Organization } from '../organizations/model.js';
import type { OrganizationAccess, Team } from './model.js';

const COLUMNS = [
  'teams.id',
  'teams.organization_id',
  'teams.name',
  'teams.is_owners',
  'teams.visibility',
  'teams.sso_team_id',
  'teams.allow_member_token_management',
  'teams.manage_workspaces',
  'teams.manage_projects',
  'teams.read_workspaces',
  'teams.read_projects',
  'teams.other_access',
  'teams.created_at',
] as const;

/** The organization access flags varsetd enforces have a column each; the others are kept together as JSON. */
interface AccessColumns {
  manage_workspaces: boolean;
  manage_projects: boolean;
  read_workspaces: boolean;
  read_projects: boolean;
  other_access: string;
}

type TeamRow = Omit<Team, 'organization_access'> & AccessColumns;

function toTeam({
  manage_workspaces,
  manage_projects,
  read_workspaces,
  read_projects,
  other_access,
  ...team
}: TeamRow): Team {
  const enforced: Record<(typeof ENFORCED_ORGANIZATION_ACCESS)[number], boolean> = {
    'manage-workspaces': manage_workspaces,
    'manage-projects': manage_projects,
    'read-workspaces': read_workspaces,
    'read-projects': read_projects,
  };
  const others = fromJson<Record<string, unknown>>(other_access);
  const access = Object.fromEntries(
    ORGANIZATION_ACCESS.map((flag) => [
      flag,
      flag in enforced ? enforced[flag as keyof typeof enforced] : others[flag] === true,
    ]),
  );
  return { ...team, organization_access: access as OrganizationAccess };
}

function accessColumns(access: OrganizationAccess): AccessColumns {
  const enforced: readonly OrganizationAccessFlag[] = ENFORCED_ORGANIZATION_ACCESS;
  const others = Object.fromEntries(
    ORGANIZATION_ACCESS.filter((flag) => !enforced.includes(flag) && access[flag]).map((flag) => [flag, true]),
  );
  return {
    manage_workspaces: access['manage-workspaces'],
    manage_projects: access['manage-projects'],
    read_workspaces: access['read-workspaces'],
    read_projects: access['read-projects'],
    other_access: JSON.stringify(others),
  };
}

/** A team with its organization, in one statement. */
export async function findTeamWithOrganization(
  db: Db,
  id: string,
): Promise<{ team: Team; organization: Organization } | undefined> {
  const row = await db
    .selectFrom('teams')
    .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
    .select(COLUMNS)
    .select(ORGANIZATION_COLUMNS)
    .where('teams.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { row: team, organization } = splitOrganization(row);
  return { team: toTeam(team), organization };
}

export async function teamNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('teams')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()) !== undefined
  );
}

export interface TeamFilter {
  search?: string | undefined;
  names?: string[] | undefined;
  scope: Exclude<Scope<{ ownTeamId: string }>, 'none'>;
}

export async function listTeams(
  db: Db,
  organizationId: string,
  filter: TeamFilter,
  page: Page,
): Promise<{ rows: Team[]; total: number }> {
  let base = db.selectFrom('teams').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.names !== undefined) base = base.where('name', 'in', filter.names.length ? filter.names : ['']);
  const scope = filter.scope;
  if (scope !== 'all')
    base = base.where((eb) => eb.or([eb('visibility', '=', 'organization'), eb('id', '=', scope.ownTeamId)]));
  const { rows, total } = await fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('name').orderBy('id'));
  return { rows: rows.map(toTeam), total };
}

export async function insertTeam(trx: Trx, team: Team): Promise<void> {
  const { organization_access, ...columns } = team;
  await trx
    .insertInto('teams')
    .values({ ...columns, search_name: searchable(team.name), ...accessColumns(organization_access) })
    .execute();
}

/** Writes what a client may change on a team. */
export async function updateTeam(trx: Trx, team: Team): Promise<void> {
  await trx
    .updateTable('teams')
    .set({
      name: team.name,
      search_name: searchable(team.name),
      visibility: team.visibility,
      sso_team_id: team.sso_team_id,
      allow_member_token_management: team.allow_member_token_management,
      ...accessColumns(team.organization_access),
    })
    .where('id', '=', team.id)
    .execute();
}

/** Deletes a team; its token and access grants go with it (foreign key cascades). */
export async function deleteTeam(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('teams').where('id', '=', id).execute();
}
