import { sql } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import { fetchPage } from '../db/page.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  type Organization,
  type OrganizationRecord,
  type OrganizationSettings,
} from './model.js';

const COLUMNS = ['organizations.id', 'organizations.name', 'organizations.email', 'organizations.created_at'] as const;
const RECORD_COLUMNS = [...COLUMNS, 'organizations.settings', 'projects.id as default_project_id'] as const;

/** Organizations joined with their default project, which every organization has. */
function withDefaultProject(db: Db) {
  return db
    .selectFrom('organizations')
    .innerJoin('projects', (join) =>
      join.onRef('projects.organization_id', '=', 'organizations.id').on('projects.is_default', '=', true),
    );
}

/** Settings as stored, with HCP Terraform's defaults for what they do not hold. */
const settingsOf = (stored: string): OrganizationSettings => ({
  ...DEFAULT_ORGANIZATION_SETTINGS,
  ...(JSON.parse(stored) as Partial<OrganizationSettings>),
});

function toRecord({
  settings,
  ...row
}: Organization & { settings: string; default_project_id: string }): OrganizationRecord {
  return { ...row, settings: settingsOf(settings) };
}

const organizationByName = compiledOnce((db, name: string) =>
  db
    .selectFrom('organizations')
    .innerJoin('organization_versions', 'organization_versions.organization_id', 'organizations.id')
    .select(COLUMNS)
    .select('organization_versions.version')
    .where('organizations.name', '=', name),
);

/** An organization with its version (migration 0007, which the response cache reads), in one statement. */
export async function findOrganizationByName(
  db: Db,
  name: string,
): Promise<{ organization: Organization; version: number } | undefined> {
  const [row] = await organizationByName(db, name);
  if (!row) return undefined;
  const { version, ...organization } = row;
  return { organization, version: Number(version) };
}

/** The name of the organization of this id, if it exists. */
export async function findOrganizationName(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name;
}

/** An organization with its settings and default project, in one statement. */
export async function findOrganizationRecord(db: Db, name: string): Promise<OrganizationRecord | undefined> {
  const row = await withDefaultProject(db)
    .select(RECORD_COLUMNS)
    .where('organizations.name', '=', name)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** An organization's settings, by its internal id. */
export async function findSettings(db: Db, organizationId: string): Promise<OrganizationSettings> {
  const row = await db
    .selectFrom('organizations')
    .select('settings')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return settingsOf(row.settings);
}

export interface OrganizationFilter {
  /** Organizations whose name or email contains it. */
  search?: string | undefined;
  name?: string | undefined;
  email?: string | undefined;
  /** Internal ids of the only organizations the caller may see; undefined for all. */
  only?: string[] | undefined;
  /** Internal ids of organizations the caller may not see. */
  except?: string[] | undefined;
}

export async function listOrganizations(
  db: Db,
  filter: OrganizationFilter,
  page: Page,
): Promise<{ rows: OrganizationRecord[]; total: number }> {
  let base = withDefaultProject(db);
  if (filter.only) base = base.where('organizations.id', 'in', filter.only.length ? filter.only : ['']);
  if (filter.except?.length) base = base.where('organizations.id', 'not in', filter.except);
  const { search, name, email } = filter;
  if (search !== undefined)
    base = base.where((eb) =>
      eb.or([
        contains(sql.ref('organizations.search_name'), search),
        contains(sql.ref('organizations.search_email'), search),
      ]),
    );
  if (name !== undefined) base = base.where(contains(sql.ref('organizations.search_name'), name));
  if (email !== undefined) base = base.where(contains(sql.ref('organizations.search_email'), email));
  const { rows, total } = await fetchPage(db, base, page, (q) =>
    q.select(RECORD_COLUMNS).orderBy('organizations.name'),
  );
  return { rows: rows.map(toRecord), total };
}

/** Inserts an organization's row; its default project and owners team are their features', reacting to 'organization.created'. */
export async function insertOrganization(trx: Trx, organization: OrganizationRecord): Promise<void> {
  const { settings, default_project_id, ...columns } = organization;
  await trx
    .insertInto('organizations')
    .values({
      ...columns,
      settings: JSON.stringify(settings),
      user_tokens_enabled: settings['user-tokens-enabled'],
      search_name: searchable(columns.name),
      search_email: searchable(columns.email),
    })
    .execute();
}

/** Writes an organization's name, email and settings. */
export async function updateOrganization(trx: Trx, organization: OrganizationRecord): Promise<void> {
  await trx
    .updateTable('organizations')
    .set({
      name: organization.name,
      email: organization.email,
      settings: JSON.stringify(organization.settings),
      user_tokens_enabled: organization.settings['user-tokens-enabled'],
      search_name: searchable(organization.name),
      search_email: searchable(organization.email),
    })
    .where('id', '=', organization.id)
    .execute();
}

/** Deletes an organization and, through the foreign keys' cascades, everything in it (its workspaces are gone first). */
export async function deleteOrganization(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('organizations').where('id', '=', id).execute();
}
