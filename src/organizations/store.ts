import { fetchPage } from '../db/page.js';
import { searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../jsonapi/query.js';
import { DEFAULT_PROJECT_NAME } from '../projects/model.js';
import { OWNERS_TEAM_NAME } from '../teams/model.js';
import type { Organization } from './model.js';


const COLUMNS = ['id', 'name', 'email', 'created_at'] as const;

export function findOrganizationByName(db: Db, name: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').select(COLUMNS).where('name', '=', name).executeTakeFirst();
}

export async function listOrganizations(db: Db, page: Page, only?: string[]): Promise<{ rows: Organization[]; total: number }> {
  let base = db.selectFrom('organizations');
  if (only) base = base.where('id', 'in', only.length ? only : ['']);
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('name'));
}

/**
 * Inserts an organization with what it is created with: its default project, and its owners
 * team, which has every organization permission.
 */
export async function insertOrganization(trx: Trx, organization: Organization, ids: { defaultProjectId: string; ownersTeamId: string }): Promise<void> {
  await trx.insertInto('organizations').values(organization).execute();
  await trx
    .insertInto('projects')
    .values({
      id: ids.defaultProjectId,
      organization_id: organization.id,
      name: DEFAULT_PROJECT_NAME,
      search_name: searchable(DEFAULT_PROJECT_NAME),
      description: '',
      is_default: true,
      created_at: organization.created_at,
    })
    .execute();
  await trx
    .insertInto('teams')
    .values({
      id: ids.ownersTeamId,
      organization_id: organization.id,
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
      created_at: organization.created_at,
    })
    .execute();
}

export async function updateOrganization(trx: Trx, organization: Organization): Promise<void> {
  await trx.updateTable('organizations').set({ name: organization.name, email: organization.email }).where('id', '=', organization.id).execute();
}

/** Deletes an organization and, through the foreign keys' cascades, everything in it. */
export async function deleteOrganization(trx: Trx, id: string): Promise<void> {
  // Workspaces first: they reference projects, which the organization's cascade also removes.
  await trx.deleteFrom('workspaces').where('organization_id', '=', id).execute();
  await trx.deleteFrom('organizations').where('id', '=', id).execute();
}
