import type { Context } from '../auth/context.js';
import type { Subject } from '../auth/subject.js';
import { recordAuditEvent } from '../audit/service.js';
import { transaction, withOrganizationLocked, type Trx } from '../db/transaction.js';
import { now } from '../common/ids.js';
import { NotFound, Conflict } from '../common/errors.js';
import type { LockHolder, WorkspaceLocator } from './model.js';
import { getWorkspace, type WorkspaceWithOrganization } from './service.js';
import * as store from './store.js';

/**
 * Locks. A team token locks as its team; the site administrator's and an organization's token
 * lock as a user named by the token's id (varsetd has no users: the token stands for whoever
 * holds it). Only the holder unlocks; those who administer the workspace force-unlock.
 */
export function lockHolderOf(subject: Subject): LockHolder {
  return subject.kind === 'team' ? { type: 'teams', id: subject.teamId } : { type: 'users', id: subject.tokenId };
}

const holderName = (holder: LockHolder) => `${holder.type === 'teams' ? 'Team' : 'User'} ${holder.id}`;

async function reread(ctx: Context, found: WorkspaceWithOrganization): Promise<WorkspaceWithOrganization> {
  const again = await store.findWorkspaceWithOrganization(ctx.store.db, { id: found.workspace.id });
  if (!again) throw new NotFound();
  return again;
}

/** Changes the lock in one statement, recorded in the audit trail when it took; false when it did not. */
function changeLock(
  ctx: Context,
  found: WorkspaceWithOrganization,
  action: 'lock' | 'unlock' | 'force_unlock',
  change: (db: Trx) => Promise<boolean>,
): Promise<boolean> {
  return transaction(ctx.store, async (trx) => {
    if (!(await change(trx))) return false;
    const { workspace } = found;
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'workspace',
      id: workspace.id,
      action,
      meta: { name: workspace.name },
    });
    return true;
  });
}

export async function lockWorkspace(
  ctx: Context,
  id: string,
  reason: string | undefined,
): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, { id }, 'workspace:lock');
  if (
    !(await changeLock(ctx, found, 'lock', (trx) =>
      store.setLock(trx, id, null, lockHolderOf(ctx.subject), reason ?? '', now()),
    ))
  ) {
    throw new Conflict('Unable to lock workspace. The workspace is already locked.');
  }
  return reread(ctx, found);
}

export async function unlockWorkspace(ctx: Context, id: string): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, { id }, 'workspace:lock');
  const holder = lockHolderOf(ctx.subject);
  const current = found.workspace.locked_by;
  if (current === null) throw new Conflict('Unable to unlock workspace. The workspace is not locked.');
  if (current.type !== holder.type || current.id !== holder.id) {
    throw new Conflict(`Unable to unlock workspace. The workspace is locked by ${holderName(current)}.`);
  }
  if (!(await changeLock(ctx, found, 'unlock', (trx) => store.setLock(trx, id, holder, null, null, now()))))
    throw new Conflict('Unable to unlock workspace. The workspace is not locked.');
  return reread(ctx, found);
}

export async function forceUnlockWorkspace(ctx: Context, id: string): Promise<WorkspaceWithOrganization> {
  const found = await getWorkspace(ctx, { id }, 'workspace:force-unlock');
  if (!(await changeLock(ctx, found, 'force_unlock', (trx) => store.setLock(trx, id, 'locked', null, null, now()))))
    throw new Conflict('Unable to unlock workspace. The workspace is not locked.');
  return reread(ctx, found);
}

/**
 * Deletes a workspace only if that is safe. HCP Terraform refuses while the workspace manages
 * resources (its latest state has some) or is locked. varsetd keeps no state, so no workspace
 * of it manages resources: the one refusal left is a lock (409), checked in the same statement
 * that deletes.
 */
export async function safeDeleteWorkspace(ctx: Context, where: WorkspaceLocator): Promise<void> {
  const { workspace } = await getWorkspace(ctx, where, 'workspace:delete');
  const deleted = await withOrganizationLocked(ctx.store, workspace.organization_id, async (trx) => {
    if (!(await store.deleteUnlockedWorkspace(trx, workspace.id))) return false;
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'workspace',
      id: workspace.id,
      action: 'safe_delete',
      meta: { name: workspace.name },
    });
    return true;
  });
  if (!deleted) {
    if (await store.findWorkspaceWithOrganization(ctx.store.db, { id: workspace.id })) {
      throw new Conflict('Workspace is currently locked. Workspace must be unlocked before it can be safely deleted.');
    }
    throw new NotFound();
  }
}
