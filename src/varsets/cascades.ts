import type { Context } from '../auth/context.js';
import type { Trx } from '../db/transaction.js';
import { narrowedTo, type VarsetState } from './versions/model.js';
import { recordVersion } from './versions/record.js';
import { findVarsetStatesOwnedBy, findVarsetsAssignedTo } from './state-store.js';

/**
 * The versions of the sets that another resource's deletion changes, recorded in that deletion's
 * transaction before the rows go (the database's cascades remove them): constant statements,
 * whatever the number of sets.
 */

/** A workspace's deletion: every set assigned to it loses that assignment. */
export async function recordWorkspaceDeletion(trx: Trx, ctx: Context, workspaceId: string): Promise<void> {
  await recordAssignmentRemovals(trx, ctx, 'workspaces', workspaceId);
}

/** A project's deletion: the sets it owns are deleted with it, and every other set assigned to it loses that assignment. */
export async function recordProjectDeletion(trx: Trx, ctx: Context, projectId: string): Promise<void> {
  const owned = await findVarsetStatesOwnedBy(trx, projectId);
  for (const before of owned) recordVersion(trx, ctx, before.varset.id, { before, after: null }, 'delete');
  await recordAssignmentRemovals(trx, ctx, 'projects', projectId, new Set(owned.map((found) => found.varset.id)));
}

async function recordAssignmentRemovals(
  trx: Trx,
  ctx: Context,
  kind: 'workspaces' | 'projects',
  id: string,
  deleted = new Set<string>(),
): Promise<void> {
  for (const { varset, lastNumber } of await findVarsetsAssignedTo(trx, kind, id)) {
    if (deleted.has(varset.id)) continue;
    // The set narrowed to the assignment that goes: all else stays as it is.
    const after = narrowedTo(varset, null);
    const before: VarsetState = { ...after, [kind === 'workspaces' ? 'workspaceIds' : 'projectIds']: new Set([id]) };
    recordVersion(
      trx,
      ctx,
      varset.id,
      { before: { varset, state: before, lastNumber }, after: { varset, state: after } },
      'update',
    );
  }
}
