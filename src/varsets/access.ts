import type { Context } from '../auth/context.js';
import { can, ensure } from '../auth/decisions.js';
import { withOrganizationLocked, type Trx } from '../db/transaction.js';
import { NotFound } from '../common/errors.js';
import { findAssignments } from './assignment-store.js';
import { targetOf, type Varset } from './model.js';
import { findVarsetAtVersion, type VarsetAtVersion } from './store.js';
import { recordVersion } from './versions/record.js';
import { narrowedTo } from './versions/model.js';
import { findVarsetAndNewestNumber, findVarsetState } from './versions/store.js';
import type { Variable } from '../variables/model.js';

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
 * Under the organization's lock: the set as `read` finds it (the 404 of a missing one), if the
 * subject may do `action` on it; `write` runs between the preview's hooks.
 */
async function underLock<Found extends { varset: Varset }, T>(
  ctx: Context,
  id: string,
  action: 'varset:update' | 'varset:delete',
  read: (trx: Trx, id: string) => Promise<Found | undefined>,
  write: (trx: Trx, found: Found) => Promise<T>,
): Promise<T> {
  return withOrganizationLocked(ctx.store, { varsetId: id }, async (trx) => {
    const found = await read(trx, id);
    if (!found) throw new NotFound();
    ensure(ctx.subject, action, targetOf(found.varset));
    await ctx.writeWatcher?.beforeWrite(trx, id);
    const result = await write(trx, found);
    await ctx.writeWatcher?.afterWrite(trx, id);
    return result;
  });
}

/**
 * A write on an existing set: under the organization's lock, the set as it is now, if the
 * subject may do `action` on it. What the write changed, the whole set read again after it,
 * becomes the set's next version.
 */
export function changeVarset<T>(ctx: Context, id: string, action: 'varset:update' | 'varset:delete', work: (trx: Trx, varset: Varset) => Promise<T>): Promise<T> {
  return underLock(ctx, id, action, findVarsetState, async (trx, before) => {
    const result = await work(trx, before.varset);
    await recordVersion(trx, ctx, id, before, action === 'varset:delete' ? 'delete' : 'update');
    return result;
  });
}

/** What a write of one variable of a set did: the variable before (null: added) and after it (null: removed). */
export interface VariableWrite<T> {
  result: T;
  before: Variable | null;
  after: Variable | null;
}

/**
 * A write of one variable of an existing set, as `changeVarset`. Its version is the set
 * narrowed to that variable before and after, as the write says they are: neither the set's
 * other variables nor its assignments are read.
 */
export function changeVarsetVariable<T>(ctx: Context, id: string, work: (trx: Trx, varset: Varset) => Promise<VariableWrite<T>>): Promise<T> {
  return underLock(ctx, id, 'varset:update', findVarsetAndNewestNumber, async (trx, { varset, lastNumber }) => {
    const { result, before, after } = await work(trx, varset);
    await recordVersion(trx, ctx, id, { varset, state: narrowedTo(varset, before), lastNumber }, 'update', { after: { varset, state: narrowedTo(varset, after) } });
    return result;
  });
}
