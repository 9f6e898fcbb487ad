import type { Context } from '../auth/context.js';
import { now } from '../common/ids.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { newVariableFields, type Variable, type VariableChanges } from '../variables/model.js';
import {
  deleteVariable,
  findVariable,
  insertVariables,
  pageOfVariables,
  prepareNewVariables,
  prepareVariableUpdate,
  variableEvent,
  saveVariable,
} from '../variables/service.js';
import type { Trx } from '../db/transaction.js';
import { readableVarset } from './access.js';
import { globalOrganizationOf, variablesOf, type Varset } from './model.js';
import { assertNoGlobalConflict } from './rules.js';
import { touchVarsetAt } from './store.js';
import { narrowedTo } from './versions/model.js';
import { existingSetAlone, writeVarset } from './write-path.js';

/**
 * The variables of a set. They are written as every variable is (src/variables/service.ts),
 * under the global rule when the set is global; a change moves the set's `updated-at`.
 */

/** The variable is the request's primary resource. */
const AT = '';

export async function listVarsetVariables(
  ctx: Context,
  varsetId: string,
  page: Page,
): Promise<{ rows: Variable[]; total: number }> {
  const { varset } = await readableVarset(ctx, varsetId, false);
  return pageOfVariables(ctx.store.db, variablesOf(varset), page);
}

export async function showVarsetVariable(ctx: Context, varsetId: string, id: string): Promise<Variable> {
  const { varset } = await readableVarset(ctx, varsetId, false);
  const variable = await findVariable(ctx.store.db, variablesOf(varset), id);
  if (!variable) throw new NotFound();
  return variable;
}

export async function addVarsetVariable(ctx: Context, varsetId: string, changes: VariableChanges): Promise<Variable> {
  const fields = newVariableFields(changes, AT);
  return writeVariable(ctx, varsetId, async (trx, varset) => {
    const timestamp = now();
    const prepared = await prepareNewVariables(trx, ctx.sealer, variablesOf(varset), [{ fields, at: AT }], timestamp);
    const { variable, candidate } = prepared[0]!;
    await assertNoGlobalConflict(trx, varset, [candidate]);
    await insertVariables(trx, variablesOf(varset), prepared, globalOrganizationOf(varset));
    touchVarsetAt(trx, varset.id, timestamp);
    return { result: variable, before: null, after: variable, action: 'create' };
  });
}

export async function updateVarsetVariable(
  ctx: Context,
  varsetId: string,
  id: string,
  changes: VariableChanges,
): Promise<Variable> {
  return writeVariable(ctx, varsetId, async (trx, varset) => {
    const prepared = await prepareVariableUpdate(trx, ctx.sealer, variablesOf(varset), id, changes, AT);
    await assertNoGlobalConflict(trx, varset, [prepared.candidate]);
    await saveVariable(trx, prepared);
    touchVarsetAt(trx, varset.id, now());
    return { result: prepared.variable, before: prepared.previous, after: prepared.variable, action: 'update' };
  });
}

export async function deleteVarsetVariable(ctx: Context, varsetId: string, id: string): Promise<void> {
  await writeVariable(ctx, varsetId, async (trx, varset) => {
    const deleted = await deleteVariable(trx, variablesOf(varset), id);
    if (!deleted) throw new NotFound();
    touchVarsetAt(trx, varset.id, now());
    return { result: undefined, before: deleted, after: null, action: 'destroy' };
  });
}

/** What a write of one variable did: the variable before (null: added) and after it (null: removed). */
interface VariableWrite<T> {
  result: T;
  before: Variable | null;
  after: Variable | null;
  action: 'create' | 'update' | 'destroy';
}

/**
 * A write of one variable of a set. Its version is the set narrowed to that variable before
 * and after, as the write says they are: neither the set's other variables nor its
 * assignments are read.
 */
async function writeVariable<T>(
  ctx: Context,
  varsetId: string,
  work: (trx: Trx, varset: Varset) => Promise<VariableWrite<T>>,
): Promise<T> {
  const { result } = await writeVarset(ctx, {
    varsetId,
    organization: { varsetId },
    action: 'update',
    open: existingSetAlone(ctx, varsetId),
    apply: async (trx, { varset, lastNumber }) => {
      const { result, before, after, action } = await work(trx, varset);
      return {
        result,
        before: { varset, state: narrowedTo(varset, before), lastNumber },
        after: { varset, state: narrowedTo(varset, after) },
        event: () => variableEvent(varset.organization_id, (after ?? before)!, action),
      };
    },
  });
  return result;
}
