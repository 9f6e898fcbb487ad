import type { Context } from '../auth/context.js';
import { ensureReadsSensitiveValues } from '../auth/decisions.js';
import { transaction } from '../db/transaction.js';
import { NotFound } from '../common/errors.js';
import { newVariableFields, type Variable, type VariableChanges, type VariableOwner } from '../variables/model.js';
import {
  deleteVariable,
  findVariable,
  insertVariables,
  listVariables,
  openSensitiveValues,
  prepareNewVariables,
  prepareVariableUpdate,
  recordVariableEvent,
  saveVariable,
  type SensitiveValue,
} from '../variables/service.js';
import { getWorkspace } from '../workspaces/service.js';

/**
 * Variables of a workspace. They are written as every variable is (src/variables/service.ts)
 * and sealed at rest like a set's; what is particular here is only where they live. Reading
 * needs Read variables on the workspace, changing needs write access to its variables.
 */

/** The variable is the request's primary resource. */
const AT = '';

const ownedBy = (workspace: { id: string }): VariableOwner => ({ kind: 'workspace', id: workspace.id });

export async function listWorkspaceVariables(ctx: Context, workspaceId: string): Promise<Variable[]> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  return listVariables(ctx.store.db, ownedBy(workspace));
}

/**
 * The workspace's sensitive values opened, to the site administrator alone (a 403 to any other
 * token), each read an audit event of the workspace: what `varsetd import --include-sensitive`
 * reads of a varsetd source.
 */
export async function readWorkspaceSensitiveValues(ctx: Context, workspaceId: string): Promise<SensitiveValue[]> {
  ensureReadsSensitiveValues(ctx.subject);
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  return openSensitiveValues(
    ctx,
    { organizationId: workspace.organization_id, type: 'workspace', id: workspace.id, meta: { name: workspace.name } },
    ownedBy(workspace),
  );
}

export async function showWorkspaceVariable(ctx: Context, workspaceId: string, id: string): Promise<Variable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  const variable = await findVariable(ctx.store.db, ownedBy(workspace), id);
  if (!variable) throw new NotFound();
  return variable;
}

export async function createWorkspaceVariable(
  ctx: Context,
  workspaceId: string,
  changes: VariableChanges,
): Promise<Variable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  const fields = newVariableFields(changes, AT);
  const owner = ownedBy(workspace);
  return transaction(ctx.store, async (trx) => {
    const prepared = await prepareNewVariables(trx, ctx.sealer, owner, [{ fields, at: AT }]);
    await insertVariables(trx, owner, prepared);
    recordVariableEvent(trx, ctx, workspace.organization_id, prepared[0]!.variable, 'create');
    return prepared[0]!.variable;
  });
}

/** Attributes absent from the body keep their value; the version changes on every update, even one that changes nothing. */
export async function updateWorkspaceVariable(
  ctx: Context,
  workspaceId: string,
  id: string,
  changes: VariableChanges,
): Promise<Variable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  return transaction(ctx.store, async (trx) => {
    const prepared = await prepareVariableUpdate(trx, ctx.sealer, ownedBy(workspace), id, changes, AT);
    await saveVariable(trx, prepared);
    recordVariableEvent(trx, ctx, workspace.organization_id, prepared.variable, 'update');
    return prepared.variable;
  });
}

export async function deleteWorkspaceVariable(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  await transaction(ctx.store, async (trx) => {
    const deleted = await deleteVariable(trx, ownedBy(workspace), id);
    if (!deleted) throw new NotFound();
    recordVariableEvent(trx, ctx, workspace.organization_id, deleted, 'destroy');
  });
}
