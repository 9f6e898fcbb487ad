import type { Context } from '../auth/context.js';
import { recordAuditEvent } from '../audit/service.js';
import { now } from '../common/ids.js';
import { changeVarset } from './access.js';
import { addAssignments, removeAssignments } from './assignment-store.js';
import type { AssignmentKind } from './model.js';
import { assertAssignable } from './rules.js';
import { updateVarset } from './store.js';

/** Where a set applies: the workspaces and projects it is assigned to. A change moves the set's `updated-at`; a request that changes nothing does not. */

/** Applies a set to workspaces or projects (adding to those it has; applying twice changes nothing). */
export async function applyVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeVarset(ctx, id, 'varset:update', async (trx, varset) => {
    await assertAssignable(trx, varset, kind, ids);
    if ((await addAssignments(trx, kind, varset.id, ids)) > 0) await updateVarset(trx, varset.id, { updated_at: now() });
    recordAuditEvent(trx, ctx, {
      organizationId: varset.organization_id,
      type: 'varset',
      id: varset.id,
      action: 'apply',
      meta: { name: varset.name, [`${kind.slice(0, -1)}_ids`]: ids.join(',') },
    });
  });
}

/** Removes a set from the listed workspaces or projects only. */
export async function removeVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeVarset(ctx, id, 'varset:update', async (trx, varset) => {
    await assertAssignable(trx, varset, kind, ids);
    if ((await removeAssignments(trx, kind, varset.id, ids)) > 0) await updateVarset(trx, varset.id, { updated_at: now() });
    recordAuditEvent(trx, ctx, {
      organizationId: varset.organization_id,
      type: 'varset',
      id: varset.id,
      action: 'remove',
      meta: { name: varset.name, [`${kind.slice(0, -1)}_ids`]: ids.join(',') },
    });
  });
}
