import { sql, type Kysely } from 'kysely';
import type { Scope } from '../auth/policy.js';
import { contains, searchable } from '../db/search.js';
import type { Database } from '../db/schema.js';
import { newId } from '../ids.js';
import type { Page } from '../jsonapi/query.js';
import { fetchPage } from '../db/page.js';

import type { Team } from './model.js';

export type { Team };

export const OWNERS_TEAM_NAME = 'owners';

/** The owners team every organization gets at creation, in the creating transaction. */
export async function insertOwnersTeam(trx: Kysely<Database>, organizationId: string, createdAt: string): Promise<void> {
  await trx
    .insertInto('teams')
    .values({
      id: newId('team'),
      organization_id: organizationId,
      name: OWNERS_TEAM_NAME,
      search_name: searchable(OWNERS_TEAM_NAME),
      is_owners: true,
      visibility: 'organization',
      sso_team_id: null,
      allow_member_token_management: true,
      manage_workspaces: true,
      manage_projects: true,
      read_workspaces: true,
      read_projects: true,
      other_access: '{}',
      created_at: createdAt,
    })
    .execute();
}

export function findTeam(db: Kysely<Database>, id: string): Promise<Team | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface TeamFilter {
  search?: string | undefined;
  names?: string[] | undefined;
  scope: Exclude<Scope<{ ownTeamId: string }>, 'none'>;
}

export async function listTeams(db: Kysely<Database>, organizationId: string, filter: TeamFilter, page: Page): Promise<{ rows: Team[]; total: number }> {
  let base = db.selectFrom('teams').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.names !== undefined) base = base.where('name', 'in', filter.names.length ? filter.names : ['']);
  const scope = filter.scope;
  if (scope !== 'all') base = base.where((eb) => eb.or([eb('visibility', '=', 'organization'), eb('id', '=', scope.ownTeamId)]));
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('name').orderBy('id'));
}
