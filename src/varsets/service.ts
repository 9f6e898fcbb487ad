import type { Db } from '../db/transaction.js';
import { findVarsetsReachingWorkspace } from './list-store.js';
import type { ReachingVarset } from './model.js';
import type { WorkspacePlace } from '../workspaces/model.js';

/**
 * Variable sets, their variables and assignments: the feature's entry, which routes and other
 * features use. The rules are in the files below; every write runs in one transaction that
 * first locks the set's organization (access.ts).
 *
 *   cached-reads.ts   a set and lists of sets, through the response cache
 *   arranged-reads.ts an organization's sets filtered by their flags or sorted
 *   set-writes.ts     creating, updating and deleting sets
 *   assignments.ts    applying sets to workspaces and projects
 *   set-variables.ts  the variables of a set
 *   rules.ts          name, global rule, what a project-owned set may reach
 *   versions/         a set's versions, rollback, and what other deletions make of sets
 */

export { listOrganizationVarsets, listProjectVarsets, listWorkspaceVarsets, showVarset, type CachedResponse, type VarsetListRequest } from './cached-reads.js';
export { listArrangedOrganizationVarsets } from './arranged-reads.js';
export { createVarset, deleteVarset, updateVarset } from './set-writes.js';
export { applyVarset, removeVarset } from './assignments.js';
export { addVarsetVariable, deleteVarsetVariable, listVarsetVariables, showVarsetVariable, updateVarsetVariable } from './set-variables.js';
export { recordProjectDeletion, recordWorkspaceDeletion } from './versions/cascades.js';

/** The sets that reach a workspace, each with every way it does, for a caller that has decided the permission (effective variables): one query. */
export function varsetsReachingWorkspace(db: Db, workspace: WorkspacePlace): Promise<ReachingVarset[]> {
  return findVarsetsReachingWorkspace(db, workspace);
}
