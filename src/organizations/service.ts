import type { Context } from '../context.js';
import { ensure, type Action } from '../auth/policy.js';
import { isUniqueViolation } from '../db/connect.js';
import { searchable } from '../db/search.js';
import { withOrganizationLocked } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { invalidAttribute, notFound } from '../jsonapi/errors.js';
import type { NameRules, ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { findOrganizationByName, listOrganizations, type Organization } from './store.js';
import { insertOwnersTeam } from '../teams/store.js';

export const DEFAULT_PROJECT_NAME = 'Default Project';
const NAME_RULES: NameRules = { maxLength: 64, pattern: /^[A-Za-z0-9_-]+$/, allowed: 'letters, numbers, "-" and "_"' };

/** The organization named `name`, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getOrganization(ctx: Context, name: string, action: Action = 'organization:read'): Promise<Organization> {
  const org = await findOrganizationByName(ctx.store.db, name);
  if (!org) throw notFound();
  ensure(ctx.subject, action, { organizationId: org.id });
  return org;
}

export async function listVisibleOrganizations(ctx: Context, page: Page): Promise<{ rows: Organization[]; total: number }> {
  ensure(ctx.subject, 'organizations:list');
  const only = ctx.subject.kind === 'site-admin' ? undefined : [ctx.subject.organizationId];
  return listOrganizations(ctx.store.db, page, only);
}

function readEmail(input: ResourceInput, required: boolean): string | undefined {
  const email = required ? input.requiredString('email', { maxLength: 254 }) : input.string('email', { maxLength: 254, nonEmpty: true });
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidAttribute('email is not a valid email address', input.attributePointer('email'));
  return email;
}

/** Creates an organization with its default project and its owners team. */
export async function createOrganization(ctx: Context, input: ResourceInput): Promise<Organization> {
  ensure(ctx.subject, 'organizations:create');
  const name = input.name(true, NAME_RULES)!;
  const email = readEmail(input, true)!;
  const org: Organization = { id: newId('org'), name, email, created_at: now() };
  try {
    await ctx.store.db.transaction().execute(async (trx) => {
      await trx.insertInto('organizations').values(org).execute();
      await trx
        .insertInto('projects')
        .values({ id: newId('prj'), organization_id: org.id, name: DEFAULT_PROJECT_NAME, search_name: searchable(DEFAULT_PROJECT_NAME), description: '', is_default: true, created_at: org.created_at })
        .execute();
      await insertOwnersTeam(trx, org.id, org.created_at);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return org;
}

export async function updateOrganization(ctx: Context, name: string, input: ResourceInput): Promise<Organization> {
  const org = await getOrganization(ctx, name, 'organization:update');
  const changes = { name: input.name(false, NAME_RULES), email: readEmail(input, false) };
  const updated = { ...org, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  try {
    await ctx.store.db.updateTable('organizations').set({ name: updated.name, email: updated.email }).where('id', '=', org.id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw input.nameTaken();
    throw error;
  }
  return updated;
}

/** Deletes an organization and everything in it. */
export async function deleteOrganization(ctx: Context, name: string): Promise<void> {
  const org = await getOrganization(ctx, name, 'organization:delete');
  await withOrganizationLocked(ctx.store, org.id, async (trx) => {
    // Workspaces first: they reference projects, which the organization's cascade also removes.
    await trx.deleteFrom('workspaces').where('organization_id', '=', org.id).execute();
    await trx.deleteFrom('organizations').where('id', '=', org.id).execute();
  });
}
