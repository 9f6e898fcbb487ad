import type { Kysely, Selectable } from 'kysely';
import type { Database, OrganizationTable } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { fetchPage } from '../db/page.js';

export type Organization = Selectable<OrganizationTable>;

export function findOrganizationByName(db: Kysely<Database>, name: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listOrganizations(db: Kysely<Database>, page: Page, only?: string[]): Promise<{ rows: Organization[]; total: number }> {
  let base = db.selectFrom('organizations');
  if (only) base = base.where('id', 'in', only.length ? only : ['']);
  return fetchPage(base, page, (q) => q.selectAll().orderBy('name'));
}
