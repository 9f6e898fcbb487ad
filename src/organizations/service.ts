import type { Context } from '../context.js';
import { ensure, type Action } from '../auth/policy.js';
import { transaction, withOrganizationLocked } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { blankAttribute, nameTaken, notFound } from '../jsonapi/errors.js';
import type { Page } from '../jsonapi/query.js';
import type { Organization, OrganizationChanges } from './model.js';
import * as store from './store.js';

/** The organization named `name`, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getOrganization(ctx: Context, name: string, action: Action = 'organization:read'): Promise<Organization> {
  const organization = await store.findOrganizationByName(ctx.store.db, name);
  if (!organization) throw notFound();
  ensure(ctx.subject, action, { organizationId: organization.id });
  return organization;
}

export async function listVisibleOrganizations(ctx: Context, page: Page): Promise<{ rows: Organization[]; total: number }> {
  ensure(ctx.subject, 'organizations:list');
  const only = ctx.subject.kind === 'site-admin' ? undefined : [ctx.subject.organizationId];
  return store.listOrganizations(ctx.store.db, page, only);
}

/** Creates an organization with its default project and its owners team. */
export async function createOrganization(ctx: Context, changes: OrganizationChanges): Promise<Organization> {
  ensure(ctx.subject, 'organizations:create');
  if (changes.name === undefined) throw blankAttribute('name');
  if (changes.email === undefined) throw blankAttribute('email');
  const organization: Organization = { id: newId('org'), name: changes.name, email: changes.email, created_at: now() };
  await transaction(ctx.store, async (trx) => {
    if (await store.findOrganizationByName(trx, organization.name)) throw nameTaken();
    await store.insertOrganization(trx, organization, { defaultProjectId: newId('prj'), ownersTeamId: newId('team') });
  });
  return organization;
}

export async function updateOrganization(ctx: Context, name: string, changes: OrganizationChanges): Promise<Organization> {
  const found = await getOrganization(ctx, name, 'organization:update');
  const organization: Organization = { ...found, name: changes.name ?? found.name, email: changes.email ?? found.email };
  await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    if (organization.name !== found.name && (await store.findOrganizationByName(trx, organization.name))) throw nameTaken();
    await store.updateOrganization(trx, organization);
  });
  return organization;
}

/** Deletes an organization and everything in it. */
export async function deleteOrganization(ctx: Context, name: string): Promise<void> {
  const organization = await getOrganization(ctx, name, 'organization:delete');
  await withOrganizationLocked(ctx.store, organization.id, (trx) => store.deleteOrganization(trx, organization.id));
}
