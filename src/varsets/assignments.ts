import type { Context } from '../auth/context.js';
import type { Trx } from '../db/transaction.js';
import { now } from '../common/ids.js';
import { addAssignments, removeAssignments } from './assignment-store.js';
import type { AssignmentKind } from './model.js';
import { assertAssignable } from './rules.js';
import { updateVarset } from './store.js';
import { existingSetWrite, setEvent, writeVarset } from './write-path.js';

/** Where a set applies: the workspaces and projects it is assigned to. A change moves the set's `updated-at`; a request that changes nothing does not. */

/** Applies a set to workspaces or projects (adding to those it has; applying twice changes nothing). */
export async function applyVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeAssignments(ctx, id, kind, ids, 'apply', (trx) => addAssignments(trx, kind, id, ids));
}

/** Removes a set from the listed workspaces or projects only. */
export async function removeVarset(ctx: Context, id: string, kind: AssignmentKind, ids: string[]): Promise<void> {
  await changeAssignments(ctx, id, kind, ids, 'remove', (trx) => removeAssignments(trx, kind, id, ids));
}

/** `change` returns how many assignments it added or removed. */
async function changeAssignments(
  ctx: Context,
  id: string,
  kind: AssignmentKind,
  ids: string[],
  action: 'apply' | 'remove',
  change: (trx: Trx) => Promise<number>,
) {
  await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'update'),
    apply: async (trx, before) => {
      await assertAssignable(trx, before.varset, kind, ids);
      if ((await change(trx)) > 0) await updateVarset(trx, id, { updated_at: now() });
      return {
        result: undefined,
        before,
        event: () => setEvent(before.varset, action, { [`${kind.slice(0, -1)}_ids`]: ids.join(',') }),
      };
    },
  });
}
