import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { organizationListScope } from '../auth/list-scopes.js';
import type { Action } from '../auth/actions.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction, withOrganizationLocked, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Taken, blank } from '../common/errors.js';
import { events } from '../events/registry.js';
import type { Page } from '../common/page.js';
import {
  DEFAULT_ORGANIZATION_SETTINGS,
  type ExecutionMode,
  type Organization,
  type OrganizationChanges,
  type OrganizationRecord,
  type OrganizationSettings,
} from './model.js';
import { checkSettings } from './settings.js';
import * as store from './store.js';

/** The organization named `name`, if the subject may do `action` on it; otherwise the 404 of a missing one. */
export async function getOrganization(
  ctx: Context,
  name: string,
  action: Action = 'organization:read',
): Promise<Organization> {
  return (await getVersionedOrganization(ctx, name, action)).organization;
}

/** `getOrganization` with the organization's version, read in the same statement. */
export async function getVersionedOrganization(
  ctx: Context,
  name: string,
  action: Action = 'organization:read',
): Promise<{ organization: Organization; version: number }> {
  const found = await store.findOrganizationByName(ctx.store.db, name);
  if (!found) throw new NotFound();
  ensure(ctx.subject, action, { organizationId: found.organization.id });
  return found;
}

/** The name of the organization of this id (the caller's own, which it need not be allowed to read further). */
export function organizationNameById(ctx: Context, id: string): Promise<string | undefined> {
  return store.findOrganizationName(ctx.store.db, id);
}

/** An organization with its settings and default project, as its own responses show it. */
export async function getOrganizationRecord(
  ctx: Context,
  name: string,
  action: Action = 'organization:read',
): Promise<OrganizationRecord> {
  const organization = await store.findOrganizationRecord(ctx.store.db, name);
  if (!organization) throw new NotFound();
  ensure(ctx.subject, action, { organizationId: organization.id });
  return organization;
}

/** The organizations the caller may see: a team or organization token's own; for the site-admin token, all but those that refuse it. */
export async function listVisibleOrganizations(
  ctx: Context,
  filter: Omit<store.OrganizationFilter, 'only' | 'except'>,
  page: Page,
): Promise<{ rows: OrganizationRecord[]; total: number }> {
  ensure(ctx.subject, 'organizations:list');
  return store.listOrganizations(ctx.store.db, { ...filter, ...organizationListScope(ctx.subject) }, page);
}

/**
 * What other features keep of every organization they write themselves, in the organization's
 * own transactions, reacting to these events (src/events/registry.ts): its default project and
 * owners team when it is created, what follows its settings when they change, what must go
 * before it when it is deleted. This feature knows none of them.
 */
declare module '../events/registry.js' {
  interface DomainEvents {
    /** An organization was inserted; its transaction is still open. */
    'organization.created': { trx: Trx; ctx: Context; organization: OrganizationRecord };
    /** An organization's name, email or settings changed, under its lock. */
    'organization.updated': { trx: Trx; ctx: Context; organization: OrganizationRecord };
    /** An organization is about to be deleted, under its lock; the database's cascades remove the rest. */
    'organization.deleting': { trx: Trx; ctx: Context; organizationId: string };
  }
}

/** Creates an organization with its default project and its owners team. */
export async function createOrganization(ctx: Context, changes: OrganizationChanges): Promise<OrganizationRecord> {
  ensure(ctx.subject, 'organizations:create');
  if (changes.name === undefined) throw blank('name');
  if (changes.email === undefined) throw blank('email');
  const settings = checkSettings({ ...DEFAULT_ORGANIZATION_SETTINGS, ...changes.settings }, changes);
  const organization: OrganizationRecord = {
    id: newId('org'),
    name: changes.name,
    email: changes.email,
    created_at: now(),
    settings,
    default_project_id: newId('prj'),
  };
  await transaction(ctx.store, async (trx) => {
    if (await store.findOrganizationByName(trx, organization.name)) throw new Taken('name');
    await store.insertOrganization(trx, organization);
    await events.publish('organization.created', { trx, ctx, organization });
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'organization',
      id: organization.id,
      action: 'create',
      meta: { name: organization.name },
    });
  });
  return organization;
}

export async function updateOrganization(
  ctx: Context,
  name: string,
  changes: OrganizationChanges,
): Promise<OrganizationRecord> {
  const found = await getOrganizationRecord(ctx, name, 'organization:update');
  const organization: OrganizationRecord = {
    ...found,
    name: changes.name ?? found.name,
    email: changes.email ?? found.email,
    settings: checkSettings({ ...found.settings, ...changes.settings }, changes),
  };
  await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    if (organization.name !== found.name && (await store.findOrganizationByName(trx, organization.name)))
      throw new Taken('name');
    await store.updateOrganization(trx, organization);
    await events.publish('organization.updated', { trx, ctx, organization });
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'organization',
      id: organization.id,
      action: 'update',
      meta: { name: organization.name },
    });
  });
  return organization;
}

/**
 * The default execution mode of an organization, for a project that follows it; read in the
 * transaction that holds the organization's lock, which an organization's update takes too.
 */
export async function organizationExecutionMode(trx: Trx, organizationId: string): Promise<ExecutionMode> {
  return (await store.findSettings(trx, organizationId))['default-execution-mode'];
}

/** An organization's settings, for the rules of what lives in it (whoever asks). */
export function organizationSettings(ctx: Context, organizationId: string): Promise<OrganizationSettings> {
  return store.findSettings(ctx.store.db, organizationId);
}

/** Deletes an organization and everything in it. */
export async function deleteOrganization(ctx: Context, name: string): Promise<void> {
  const organization = await getOrganization(ctx, name, 'organization:delete');
  await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    await events.publish('organization.deleting', { trx, ctx, organizationId: organization.id });
    await store.deleteOrganization(trx, organization.id);
    // Kept after the organization is gone, until retention removes it (migration 0018).
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'organization',
      id: organization.id,
      action: 'destroy',
      meta: { name: organization.name },
    });
  });
}
