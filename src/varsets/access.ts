import type { Context } from '../context.js';
import { can, ensure } from '../auth/decisions.js';
import { withOrganizationLocked, type Trx } from '../db/transaction.js';
import { NotFound } from '../common/errors.js';
import { findAssignments } from './assignment-store.js';
import { targetOf, type Varset } from './model.js';
import { findVarsetAtVersion, type VarsetAtVersion } from './store.js';
import { recordVersion } from './versions/record.js';
import type { VarsetState } from './versions/model.js';
import { findVarsetState } from './versions/store.js';

/**
 * How a request gets at an existing set: to read it, if the caller may; to change it, under
 * its organization's lock, so that the checks a write makes see every committed change and
 * no other writer of the organization's sets runs in between.
 */

/**
 * Reading a set needs Read variables where it applies. Most callers are decided by what the
 * set says of itself (organization-wide access, a global set, the owning project); the
 * others cost one more query for the set's assignments.
 */
async function ensureReadable(ctx: Context, varset: Varset): Promise<void> {
  const target = targetOf(varset);
  if (can(ctx.subject, 'varset:read', target)) return;
  const assigned = await findAssignments(ctx.store.db, varset.id);
  ensure(ctx.subject, 'varset:read', { ...target, varset: { ...target.varset!, ...assigned } });
}

/**
 * A set the subject may read, otherwise the 404 of a missing one, with its relationships
 * (variables' rows when `variableRows`; none at `unlessAtVersion`, see `findVarsetAtVersion`)
 * and its organization's version (for the response cache), all read in the statement that
 * reads the set.
 */
export async function readableVarset(ctx: Context, id: string, variableRows: boolean, unlessAtVersion?: number): Promise<VarsetAtVersion> {
  const found = await findVarsetAtVersion(ctx.store.db, id, variableRows, unlessAtVersion);
  if (!found) throw new NotFound();
  await ensureReadable(ctx, found.varset);
  return found;
}

/**
 * A write on an existing set: under the organization's lock, the set as it is now, if the
 * subject may do `action` on it. What the write changed becomes the set's next version. A
 * write that changes only what it can name (`stateAfter`: its variables) spares the version a
 * second reading of the set.
 */
export async function changeVarset<T>(
  ctx: Context,
  id: string,
  action: 'varset:update' | 'varset:delete',
  work: (trx: Trx, varset: Varset) => Promise<T>,
  stateAfter?: (before: VarsetState, result: T) => VarsetState,
): Promise<T> {
  return withOrganizationLocked(ctx.store, { varsetId: id }, async (trx) => {
    const before = await findVarsetState(trx, id);
    if (!before) throw new NotFound();
    ensure(ctx.subject, action, targetOf(before.varset));
    await ctx.writeWatcher?.beforeWrite(trx, id);
    const result = await work(trx, before.varset);
    const after = stateAfter && { varset: before.varset, state: stateAfter(before.state, result) };
    await recordVersion(trx, ctx, id, before, action === 'varset:delete' ? 'delete' : 'update', after && { after });
    await ctx.writeWatcher?.afterWrite(trx, id);
    return result;
  });
}
