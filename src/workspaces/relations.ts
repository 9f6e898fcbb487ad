import type { Context } from '../auth/context.js';
import { can } from '../auth/decisions.js';
import { locationOfWorkspace } from '../common/location.js';
import { recordAuditEvent } from '../audit/service.js';
import { withOrganizationLocked, type Trx } from '../db/transaction.js';
import { Invalid } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getOrganization } from '../organizations/service.js';
import { addBindings, effectiveBindingsOf, listBindings } from '../tag-bindings/service.js';
import type { EffectiveTagBinding, TagBinding } from '../tag-bindings/model.js';
import type { Workspace } from './model.js';
import { getWorkspace, type WorkspaceWithOrganization } from './lookup.js';
import * as consumerStore from './consumer-store.js';
import * as store from './store.js';
import * as tagStore from './tag-store.js';
import { tagWorkspace, untagWorkspace } from './tags.js';

/** What hangs off a workspace: its tags, tag bindings and remote state consumers. */

// --- tags

export async function addWorkspaceTags(
  ctx: Context,
  id: string,
  tags: { names: string[]; ids: string[] },
): Promise<void> {
  const { workspace } = await getWorkspace(ctx, { id }, 'workspace:update');
  await withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
    await tagWorkspace(trx, workspace, tags);
    recordTags(trx, ctx, workspace, 'add_tags', tags);
  });
}

export async function removeWorkspaceTags(
  ctx: Context,
  id: string,
  tags: { names: string[]; ids: string[] },
): Promise<void> {
  const { workspace } = await getWorkspace(ctx, { id }, 'workspace:update');
  await withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
    await untagWorkspace(trx, workspace, tags);
    recordTags(trx, ctx, workspace, 'remove_tags', tags);
  });
}

function recordTags(
  trx: Trx,
  ctx: Context,
  workspace: Workspace,
  action: string,
  tags: { names: string[]; ids: string[] },
): void {
  recordAuditEvent(trx, ctx, {
    organizationId: workspace.organization_id,
    type: 'workspace',
    id: workspace.id,
    action,
    meta: { tags: [...tags.names, ...tags.ids].join(',') },
  });
}

export async function listWorkspaceTags(ctx: Context, id: string, search: string | undefined, page: Page) {
  const { workspace } = await getWorkspace(ctx, { id });
  return tagStore.tagsOfWorkspace(ctx.store.db, workspace.id, search, page);
}

/** An organization's tags: what every member may list, as it lists the workspaces. */
export async function listOrganizationTags(
  ctx: Context,
  organizationName: string,
  search: string | undefined,
  page: Page,
) {
  const organization = await getOrganization(ctx, organizationName);
  return { organization, ...(await tagStore.tagsOfOrganization(ctx.store.db, organization.id, search, page)) };
}

// --- tag bindings

export async function listWorkspaceTagBindings(ctx: Context, id: string): Promise<TagBinding[]> {
  const { workspace } = await getWorkspace(ctx, { id });
  return listBindings(ctx.store.db, { kind: 'workspace', id: workspace.id, organizationId: workspace.organization_id });
}

export async function listWorkspaceEffectiveTagBindings(ctx: Context, id: string): Promise<EffectiveTagBinding[]> {
  const { workspace } = await getWorkspace(ctx, { id });
  return (await effectiveBindingsOf(ctx.store.db, [workspace])).get(workspace.id) ?? [];
}

export async function addWorkspaceTagBindings(
  ctx: Context,
  id: string,
  bindings: { key: string; value: string }[],
): Promise<TagBinding[]> {
  const { workspace } = await getWorkspace(ctx, { id }, 'workspace:update');
  return withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
    const result = await addBindings(
      trx,
      { kind: 'workspace', id: workspace.id, organizationId: workspace.organization_id },
      bindings,
    );
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'workspace',
      id: workspace.id,
      action: 'add_tag_bindings',
      meta: { keys: bindings.map((b) => b.key).join(',') },
    });
    return result;
  });
}

// --- remote state consumers

/**
 * The workspaces allowed to read this one's state. The list is kept whatever
 * `global-remote-state` says; while that is true, every workspace of the organization may read
 * the state, listed or not.
 */
export async function listRemoteStateConsumers(
  ctx: Context,
  id: string,
  page: Page,
): Promise<WorkspaceWithOrganization & { rows: Workspace[]; total: number }> {
  const found = await getWorkspace(ctx, { id });
  const ids = await consumerStore.consumerIds(ctx.store.db, id);
  const all = (await store.findWorkspaces(ctx.store.db, found.organization.id, ids))
    .filter((w) => can(ctx.subject, 'workspace:read', locationOfWorkspace(w)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const rows = all.slice((page.number - 1) * page.size, page.number * page.size);
  return { ...found, rows, total: all.length };
}

export type ConsumerChange = 'add' | 'remove' | 'replace';

/** Adds, removes or replaces consumers. Each must be a workspace of the same organization the caller can see (else 422). */
export async function changeRemoteStateConsumers(
  ctx: Context,
  id: string,
  change: ConsumerChange,
  consumerIds: string[],
): Promise<void> {
  const { workspace, organization } = await getWorkspace(ctx, { id }, 'workspace:update');
  if (consumerIds.length === 0) throw new Invalid('remote-state-consumers', 'at least one workspace is required');
  await withOrganizationLocked(ctx.store, organization.id, async (trx) => {
    const found = await store.findWorkspaces(trx, organization.id, consumerIds);
    const visible = new Set(
      found.filter((w) => can(ctx.subject, 'workspace:read', locationOfWorkspace(w))).map((w) => w.id),
    );
    const missing = consumerIds.findIndex((consumer) => !visible.has(consumer));
    if (missing >= 0)
      throw new Invalid(`remote-state-consumers[${missing}].id`, 'no workspace of this organization has this id');
    if (change === 'remove') await consumerStore.removeConsumers(trx, workspace.id, consumerIds);
    else {
      if (change === 'replace') await consumerStore.removeConsumers(trx, workspace.id);
      await consumerStore.addConsumers(trx, workspace.id, consumerIds);
    }
    const action = `${change}_remote_state_consumers`;
    recordAuditEvent(trx, ctx, {
      organizationId: organization.id,
      type: 'workspace',
      id: workspace.id,
      action,
      meta: { workspace_ids: consumerIds.join(',') },
    });
  });
}
