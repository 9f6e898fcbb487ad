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
  recordVariableEvent,
  saveVariable,
} from '../variables/service.js';
import { changeVarsetVariable, readableVarset } from './access.js';
import { globalOrganizationOf, variablesOf } from './model.js';
import { assertNoGlobalConflict } from './rules.js';
import { touchVarsetAt } from './store.js';

/**
 * The variables of a set. They are written as every variable is (src/variables/service.ts),
 * under the global rule when the set is global; a change moves the set's `updated-at`.
 */

/** The variable is the request's primary resource. */
const AT = '';

export async function listVarsetVariables(ctx: Context, varsetId: string, page: Page): Promise<{ rows: Variable[]; total: number }> {
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
  return changeVarsetVariable(ctx, varsetId, async (trx, varset) => {
    const timestamp = now();
    const prepared = await prepareNewVariables(trx, ctx.sealer, variablesOf(varset), [{ fields, at: AT }], timestamp);
    const { variable, candidate } = prepared[0]!;
    await assertNoGlobalConflict(trx, varset, [candidate]);
    await insertVariables(trx, variablesOf(varset), prepared, globalOrganizationOf(varset));
    touchVarsetAt(trx, varset.id, timestamp);
    recordVariableEvent(trx, ctx, varset.organization_id, variable, 'create');
    return { result: variable, before: null, after: variable };
  });
}

export async function updateVarsetVariable(ctx: Context, varsetId: string, id: string, changes: VariableChanges): Promise<Variable> {
  return changeVarsetVariable(ctx, varsetId, async (trx, varset) => {
    const prepared = await prepareVariableUpdate(trx, ctx.sealer, variablesOf(varset), id, changes, AT);
    await assertNoGlobalConflict(trx, varset, [prepared.candidate]);
    await saveVariable(trx, prepared);
    touchVarsetAt(trx, varset.id, now());
    recordVariableEvent(trx, ctx, varset.organization_id, prepared.variable, 'update');
    return { result: prepared.variable, before: prepared.previous, after: prepared.variable };
  });
}

export async function deleteVarsetVariable(ctx: Context, varsetId: string, id: string): Promise<void> {
  await changeVarsetVariable(ctx, varsetId, async (trx, varset) => {
    const deleted = await deleteVariable(trx, variablesOf(varset), id);
    if (!deleted) throw new NotFound();
    recordVariableEvent(trx, ctx, varset.organization_id, deleted, 'destroy');
    touchVarsetAt(trx, varset.id, now());
    return { result: undefined, before: deleted, after: null };
  });
}
