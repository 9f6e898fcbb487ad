import type { Db } from '../db/transaction.js';
import { findVarsetsReachingWorkspace } from './list-store.js';
import type { ReachingVarset } from './model.js';
import type { WorkspacePlace } from '../workspaces/model.js';

/**
 * Variable sets, their variables and assignments: the feature's entry, which routes and other
 * features use. The rules are in the files below; every write of a set is one of the one
 * write path (write-path.ts), which holds the set's organization's lock, decides the
 * permission, and records the write's version and audit event.
 *
 *   versioned-reads.ts  a set and lists of sets, at their organization's version, which the response cache keeps bodies at
 *   arranged-reads.ts   an organization's sets filtered by their flags or sorted
 *   set-writes.ts       creating, updating and deleting sets
 *   set-replace.ts      replacing a set whole in one write, for the command line (import), and
 *                       writing several of its variables in one write
 *   assignments.ts      applying sets to workspaces and projects
 *   set-variables.ts    the variables of a set
 *   rollback.ts         making a set again what it was at a version, deleted or not
 *   sensitive-values.ts  a set's sensitive values opened, to the site administrator alone
 *   organization-views.ts  every set of an organization whole, for the command line
 *   history.ts          reading a set's versions
 *   cascades.ts         the versions of the sets a workspace's or project's deletion changes
 *   rules.ts            name, global rule, what a project-owned set may reach
 *   versions/           what a version is, the difference of two states and its undoing, its rows
 */

export {
  listOrganizationVarsets,
  listProjectVarsets,
  listWorkspaceVarsets,
  showVarset,
  type VarsetListRequest,
} from './versioned-reads.js';
export { listArrangedOrganizationVarsets } from './arranged-reads.js';
export { createVarset, deleteVarset, updateVarset } from './set-writes.js';
export {
  replaceVarset,
  writeVarsetVariables,
  type VariableWriteCommand,
  type VarsetReplacement,
} from './set-replace.js';
export { applyVarset, removeVarset } from './assignments.js';
export {
  addVarsetVariable,
  deleteVarsetVariable,
  listVarsetVariables,
  showVarsetVariable,
  updateVarsetVariable,
} from './set-variables.js';
export { rollbackVarset, type RollbackRequest, type RollbackResult } from './rollback.js';
export { listDeletedVarsets, listVarsetVersions, showVarsetVersion } from './history.js';
export { pageOfOrganizationVarsets } from './organization-views.js';
export { readVarsetSensitiveValues } from './sensitive-values.js';

/** The sets that reach a workspace, each with every way it does, for a caller that has decided the permission (effective variables): one query. */
export function varsetsReachingWorkspace(db: Db, workspace: WorkspacePlace): Promise<ReachingVarset[]> {
  return findVarsetsReachingWorkspace(db, workspace);
}
