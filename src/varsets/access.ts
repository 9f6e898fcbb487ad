import { confirmCredentials, type Context } from '../auth/context.js';
import { can, ensure } from '../auth/decisions.js';
import { NotFound } from '../common/errors.js';
import { findAssignments } from './assignment-store.js';
import { targetOf, type Varset } from './model.js';
import { findVarsetAtVersion, type VarsetAtVersion } from './store.js';

/** How a request gets at an existing set to read it, if the caller may (writes go through write-path.ts). */

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
 * its organization's version (for the response cache) and the credentials version (which
 * confirms a kept subject, `confirmCredentials`), all read in the statement that reads the set.
 */
export async function readableVarset(
  ctx: Context,
  id: string,
  variableRows: boolean,
  unlessAtVersion?: number,
): Promise<VarsetAtVersion> {
  const found = await findVarsetAtVersion(ctx.store.db, id, variableRows, unlessAtVersion);
  // Before anything is decided from the subject: a kept one may be stale, and a set not found no proof it is not.
  confirmCredentials(ctx, found?.credentialsVersion);
  if (!found) throw new NotFound();
  await ensureReadable(ctx, found.varset);
  return found;
}
