import type { Context } from '../auth/context.js';
import { DomainError } from '../common/errors.js';
import { createProject } from '../projects/service.js';
import type { VariableChanges } from '../variables/model.js';
import type { VarsetCommand } from '../varsets/model.js';
import { createVarset, replaceVarset } from '../varsets/service.js';
import { createWorkspaceVariable, updateWorkspaceVariable } from '../workspace-variables/service.js';
import { addWorkspaceTags, createWorkspace } from '../workspaces/service.js';

/**
 * Every write `varsetd import` makes, through the services, and nothing else. Each is made by
 * the command line's subject, and says why through `Context.cause` (`import from URL`), which
 * a set's audit event keeps. A set, new or changed, is written whole in one write: one version.
 */

export async function importProject(ctx: Context, organization: string, name: string): Promise<string> {
  return (await createProject(ctx, organization, { name, overwrites: {} })).project.id;
}

export async function importWorkspace(
  ctx: Context,
  organization: string,
  name: string,
  projectId: string | undefined,
): Promise<string> {
  return (await createWorkspace(ctx, organization, { name, projectId, settings: {} })).workspace.id;
}

/** A new set, whole (attributes, variables, assignments): one transaction, one version. */
export async function importNewSet(ctx: Context, organization: string, command: VarsetCommand): Promise<void> {
  await createVarset(ctx, organization, command);
}

/** What an existing set needs: attributes, assignments and new variables (null: none), and each changed and removed variable. */
export interface SetChange {
  command: VarsetCommand | null;
  updates: { id: string; changes: VariableChanges }[];
  deletions: string[];
}

/** The change of an existing set, in one write: one version, and nothing of it written if any part is refused. */
export async function importSetChange(ctx: Context, id: string, change: SetChange): Promise<void> {
  await replaceVarset(ctx, id, {
    command: change.command ?? { variables: [] },
    updates: change.updates,
    deletions: change.deletions,
  });
}

export async function importWorkspaceVariable(
  ctx: Context,
  workspaceId: string,
  existingId: string | null,
  changes: VariableChanges,
): Promise<void> {
  if (existingId === null) await createWorkspaceVariable(ctx, workspaceId, changes);
  else await updateWorkspaceVariable(ctx, workspaceId, existingId, changes);
}

/** Tags a workspace with the names it lacks: one write, one audit event. */
export async function importWorkspaceTags(ctx: Context, workspaceId: string, names: string[]): Promise<void> {
  await addWorkspaceTags(ctx, workspaceId, { names, ids: [] });
}

/** A write the services refuse skips that item, saying why; anything else stops the import. */
export async function attempt(write: () => Promise<void>): Promise<string | undefined> {
  try {
    await write();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}
