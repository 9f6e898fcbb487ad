import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { fetchPage } from '../db/page.js';

import type { Organization } from './model.js';

export type { Organization };

export function findOrganizationByName(db: Kysely<Database>, name: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function listOrganizations(db: Kysely<Database>, page: Page, only?: string[]): Promise<{ rows: Organization[]; total: number }> {
  let base = db.selectFrom('organizations');
  if (only) base = base.where('id', 'in', only.length ? only : ['']);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('name'));
}

/** The organization's columns, for a query that joins `organizations` to a row of its own. */
export const ORGANIZATION_COLUMNS = ['organizations.name as organization_name', 'organizations.email as organization_email', 'organizations.created_at as organization_created_at'] as const;

type WithOrganizationColumns = { organization_id: string; organization_name: string; organization_email: string; organization_created_at: string };

/** Splits a row selected with `ORGANIZATION_COLUMNS` into the row itself and its organization. */
export function splitOrganization<R extends WithOrganizationColumns>(joined: R): { row: Omit<R, 'organization_name' | 'organization_email' | 'organization_created_at'>; organization: Organization } {
  const { organization_name, organization_email, organization_created_at, ...row } = joined;
  return { row, organization: { id: row.organization_id, name: organization_name, email: organization_email, created_at: organization_created_at } };
}
