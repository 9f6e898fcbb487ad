import type { Context } from '../auth/context.js';
import { createProject } from '../projects/service.js';
import type { VariableChanges } from '../variables/model.js';
import type { VarsetCommand } from '../varsets/model.js';
import { createVarset, deleteVarsetVariable, updateVarset, updateVarsetVariable } from '../varsets/service.js';
import { createWorkspaceVariable, updateWorkspaceVariable } from '../workspace-variables/service.js';
import { createWorkspace } from '../workspaces/service.js';

/**
 * Every write `varsetd import` makes, through the services the API's routes call, and nothing
 * else: the one place to move onto a write path that takes an actor and a reason. The import
 * names itself through the context's subject (its description: `… import from URL`), which
 * is what versions and the audit trail record of who wrote.
 */

export async function importProject(ctx: Context, organization: string, name: string): Promise<string> {
  return (await createProject(ctx, organization, { name, overwrites: {} })).project.id;
}

export async function importWorkspace(ctx: Context, organization: string, name: string, projectId: string | undefined): Promise<string> {
  return (await createWorkspace(ctx, organization, { name, projectId, settings: {} })).workspace.id;
}

/** A new set, whole (attributes, variables, assignments): one transaction, one version. */
export async function importNewSet(ctx: Context, organization: string, command: VarsetCommand): Promise<void> {
  await createVarset(ctx, organization, command);
}

/** What an existing set needs: attributes, assignments and new variables in one write; then each changed and removed variable. */
export interface SetChange {
  command: VarsetCommand | null;
  updates: { id: string; changes: VariableChanges }[];
  deletions: string[];
}

/**
 * The change of an existing set. The services write a set's attributes, assignments and new
 * variables in one transaction, but each update or removal of a variable in one of its own:
 * so a set whose variables changed gets a version for each such variable besides the first.
 */
export async function importSetChange(ctx: Context, id: string, change: SetChange): Promise<void> {
  if (change.command) await updateVarset(ctx, id, change.command);
  for (const { id: variableId, changes } of change.updates) await updateVarsetVariable(ctx, id, variableId, changes);
  for (const variableId of change.deletions) await deleteVarsetVariable(ctx, id, variableId);
}

export async function importWorkspaceVariable(ctx: Context, workspaceId: string, existingId: string | null, changes: VariableChanges): Promise<void> {
  if (existingId === null) await createWorkspaceVariable(ctx, workspaceId, changes);
  else await updateWorkspaceVariable(ctx, workspaceId, existingId, changes);
}
