import type { Context } from '../context.js';
import { isUniqueViolation } from '../db/connect.js';
import { newId, now } from '../ids.js';
import { invalidAttribute, notFound } from '../jsonapi/errors.js';
import type { ResourceInput } from '../jsonapi/payload.js';
import { storedValue } from '../secrets/variables.js';
import { applyVariableChanges, newVersionId, readNewVariable, readVariableChanges } from '../variables/rules.js';
import { getWorkspace } from '../workspaces/service.js';
import * as store from './store.js';
import type { WorkspaceVariable } from './store.js';

/**
 * Variables of a workspace. Their attributes follow the rules every variable follows
 * (src/variables/rules.ts) and sensitive values are sealed at rest like a set's; what is
 * particular here is only where they live. Reading needs Read variables on the workspace,
 * changing needs write access to its variables.
 */

const keyTaken = (input: ResourceInput) => invalidAttribute('Key has already been taken', input.attributePointer(input.has('key') || !input.has('category') ? 'key' : 'category'));

export async function listWorkspaceVariables(ctx: Context, workspaceId: string): Promise<WorkspaceVariable[]> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  return store.listVariables(ctx.store.db, workspace.id);
}

export async function showWorkspaceVariable(ctx: Context, workspaceId: string, id: string): Promise<WorkspaceVariable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  const variable = await store.findVariable(ctx.store.db, workspace.id, id);
  if (!variable) throw notFound();
  return variable;
}

/** A variable's key and category are unique in its workspace (422); the unique index settles a race between two writers the same way. */
async function withUniqueKey<T>(input: ResourceInput, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw keyTaken(input);
    throw error;
  }
}

export async function createWorkspaceVariable(ctx: Context, workspaceId: string, input: ResourceInput): Promise<WorkspaceVariable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  const fields = readNewVariable(input);
  const variable: WorkspaceVariable = {
    id: newId('var'),
    workspace_id: workspace.id,
    key: fields.key,
    value: storedValue(ctx.sealer, fields),
    description: fields.description,
    category: fields.category,
    hcl: fields.hcl,
    sensitive: fields.sensitive,
    version_id: newVersionId(),
    created_at: now(),
  };
  return withUniqueKey(input, () =>
    ctx.store.db.transaction().execute(async (trx) => {
      if (await store.findVariableIdByKey(trx, workspace.id, variable.key, variable.category)) throw keyTaken(input);
      await store.insertVariable(trx, variable);
      return variable;
    }),
  );
}

/** Attributes absent from the body keep their value; the version changes on every update, even one that changes nothing. */
export async function updateWorkspaceVariable(ctx: Context, workspaceId: string, id: string, input: ResourceInput): Promise<WorkspaceVariable> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  const changes = readVariableChanges(input);
  return withUniqueKey(input, () =>
    ctx.store.db.transaction().execute(async (trx) => {
      const current = await store.findVariable(trx, workspace.id, id);
      if (!current) throw notFound();
      const fields = applyVariableChanges({ ...current, hcl: current.hcl, sensitive: current.sensitive }, changes, input);
      const holder = await store.findVariableIdByKey(trx, workspace.id, fields.key, fields.category);
      if (holder !== undefined && holder !== current.id) throw keyTaken(input);
      const value = storedValue(ctx.sealer, fields, current, changes.value !== undefined);
      const variable: WorkspaceVariable = { ...current, ...fields, value, hcl: fields.hcl, sensitive: fields.sensitive, version_id: newVersionId() };
      const { id: _id, workspace_id: _workspace, created_at: _created, ...update } = variable;
      await store.updateVariable(trx, current.id, update);
      return variable;
    }),
  );
}

export async function deleteWorkspaceVariable(ctx: Context, workspaceId: string, id: string): Promise<void> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:write-variables');
  if (!(await store.deleteVariable(ctx.store.db, workspace.id, id))) throw notFound();
}
