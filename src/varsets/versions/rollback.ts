import type { Context } from '../../auth/context.js';
import { recordAuditEvent } from '../../audit/service.js';
import { ensure } from '../../auth/decisions.js';
import { withOrganizationLocked, type Trx } from '../../db/transaction.js';
import { now } from '../../common/ids.js';
import { NotFound, Unprocessable } from '../../common/errors.js';
import { deleteVariables, insertVariables, newVersionId } from '../../variables/service.js';
import type { Variable } from '../../variables/model.js';
import { addAssignments, findProjectsById, findWorkspacesById, removeAssignments } from '../assignment-store.js';
import { globalOrganizationOf, targetOf, variablesOf, type Varset, type VarsetView } from '../model.js';
import { assertNameFree, assertNoGlobalConflict } from '../rules.js';
import { insertVarset, setVariablesGlobal, updateVarset } from '../store.js';
import { loadView, readableBy } from '../views.js';
import { undoVersions, type Change, type VariableState, type VarsetState } from './model.js';
import { recordVersion } from './record.js';
import { findLastVersionNumber, findVarsetState, findVersion, findVersionsAfter } from './store.js';

/** What a rollback's refusals are about: the version it restores. */
const AT = 'version';

export interface RollbackRequest {
  versionId: string;
  /** Restore the rest when workspaces or projects the set was assigned to are gone (otherwise a 422). */
  skipMissing: boolean;
  /** Answer what the rollback would change, and change nothing. */
  dryRun: boolean;
}

/** The set after the rollback, and the version it made (null: it changed nothing). */
export interface RollbackResult {
  view: VarsetView;
  version: { id: string; number: number; changes: Change[] } | null;
}

/** Carries a dry run's result out of its transaction, which it rolls back on its way. */
class DryRun extends Error {
  constructor(readonly result: RollbackResult) {
    super('dry run');
  }
}

/**
 * Makes the set again what it was at a version, as a new version, under every rule a write
 * obeys: the permission to change the set (to create it, for a deleted set, which only the
 * organization's owners may see), its name free, the global rule. Workspaces and projects
 * that no longer exist (or that a project-owned set may no longer reach) are a 422 naming
 * them, unless the request asks to restore the rest. A dry run makes the rollback and takes it
 * back: it answers exactly what the rollback would, and leaves nothing behind.
 */
export async function rollbackVarset(ctx: Context, varsetId: string, request: RollbackRequest): Promise<RollbackResult> {
  try {
    return await rollbackInTransaction(ctx, varsetId, request);
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}

async function rollbackInTransaction(ctx: Context, varsetId: string, request: RollbackRequest): Promise<RollbackResult> {
  const version = await findVersion(ctx.store.db, request.versionId);
  if (!version || version.varsetId !== varsetId) throw new NotFound();
  return withOrganizationLocked(ctx.store, version.organizationId, async (trx) => {
    const current = await findVarsetState(trx, varsetId);
    const timestamp = now();
    let varset: Varset;
    if (current) {
      ensure(ctx.subject, 'varset:update', targetOf(current.varset));
      varset = { ...current.varset, updated_at: timestamp };
    } else {
      ensure(ctx.subject, 'varset:read-deleted', { organizationId: version.organizationId });
      varset = {
        id: varsetId,
        organization_id: version.organizationId,
        organization_name: '',
        project_id: version.projectId,
        name: '',
        description: '',
        global: false,
        priority: false,
        created_at: timestamp,
        updated_at: timestamp,
      };
      ensure(ctx.subject, 'varsets:create', targetOf(varset));
    }
    const target = undoVersions(current?.state ?? null, await findVersionsAfter(trx, varsetId, version.number));
    if (!target) throw new Unprocessable(`version ${version.number} is the deletion of the set: there is nothing to restore from it`, AT);
    if (!current && varset.project_id !== null && !(await findProjectsById(trx, [varset.project_id])).length) {
      throw new Unprocessable(`the project that owned the set (${varset.project_id}) no longer exists`, AT);
    }
    await keepReachable(trx, varset, target, request.skipMissing);
    Object.assign(varset, { name: target.name, description: target.description, global: target.global, priority: target.priority });
    await assertNameFree(trx, varset);
    await assertNoGlobalConflict(
      trx,
      varset,
      [...target.variables.values()].map((v) => ({ key: v.key, category: v.category, field: AT })),
    );

    await writeState(trx, varset, current?.state ?? null, target, timestamp);
    const lastNumber = current ? current.lastNumber : await findLastVersionNumber(trx, varsetId);
    const made = await recordVersion(trx, ctx, varsetId, { varset: current?.varset ?? null, state: current?.state ?? null, lastNumber }, 'rollback', {
      rolledBackTo: version.number,
    });
    const meta = { name: varset.name, 'rolled-back-to': String(version.number), ...(made ? { version: String(made.number) } : {}) };
    recordAuditEvent(trx, ctx, { organizationId: varset.organization_id, type: 'varset', id: varset.id, action: 'rollback', meta });
    const written = await findVarsetState(trx, varsetId);
    const view = readableBy(ctx.subject, [await loadView(trx, written!.varset)])[0]!;
    const result = { view, version: made && { id: made.id, number: made.number, changes: made.changes } };
    if (request.dryRun) throw new DryRun(result);
    return result;
  });
}

/**
 * Drops from `target` the workspaces and projects the set can no longer be assigned to (gone,
 * or outside the project that owns the set), when the request allows; a 422 naming them otherwise.
 */
async function keepReachable(trx: Trx, varset: Varset, target: VarsetState, skipMissing: boolean): Promise<void> {
  const inReach = (place: { organization_id: string; project_id?: string }, projectId: string) =>
    place.organization_id === varset.organization_id && (varset.project_id === null || projectId === varset.project_id);
  const workspaces = new Set((await findWorkspacesById(trx, [...target.workspaceIds])).filter((w) => inReach(w, w.project_id)).map((w) => w.id));
  const projects = new Set((await findProjectsById(trx, [...target.projectIds])).filter((p) => inReach(p, p.id)).map((p) => p.id));
  const missing = [...[...target.workspaceIds].filter((id) => !workspaces.has(id)), ...[...target.projectIds].filter((id) => !projects.has(id))];
  if (missing.length && !skipMissing) {
    const error = new Unprocessable(
      `the set was assigned to workspaces or projects it can no longer be assigned to: ${missing.join(', ')}; ask with skip-missing=true to restore the rest`,
      AT,
    );
    error.code = 'missing-assignments';
    error.facts = { missing };
    throw error;
  }
  target.workspaceIds = workspaces;
  target.projectIds = projects;
}

const sameVariable = (a: VariableState, b: VariableState) =>
  a.key === b.key && a.value === b.value && a.description === b.description && a.category === b.category && a.hcl === b.hcl && a.sensitive === b.sensitive;

/** Writes `target` over the set's `current` state (null: the set is gone): only what differs. */
async function writeState(trx: Trx, varset: Varset, current: VarsetState | null, target: VarsetState, timestamp: string): Promise<void> {
  const { name, description, global, priority, updated_at } = varset;
  if (current) await updateVarset(trx, varset.id, { name, description, global, priority, updated_at });
  else await insertVarset(trx, varset);
  const owner = variablesOf(varset);
  const currentVariables = current?.variables ?? new Map<string, VariableState>();
  // Replaced whole, removed first: two variables trading keys never meet in the unique index.
  const replaced = [...currentVariables].filter(([id, v]) => !target.variables.has(id) || !sameVariable(v, target.variables.get(id)!)).map(([id]) => id);
  await deleteVariables(trx, owner, replaced);
  const restored: Variable[] = [...target.variables]
    .filter(([id, v]) => !currentVariables.has(id) || !sameVariable(currentVariables.get(id)!, v))
    .map(([id, v]) => ({ ...v, id, owner, version_id: newVersionId(), created_at: timestamp }));
  await insertVariables(
    trx,
    owner,
    restored.map((variable) => ({ variable, candidate: { key: variable.key, category: variable.category, field: AT } })),
    globalOrganizationOf(varset),
  );
  if (current && current.global !== global) await setVariablesGlobal(trx, varset);
  for (const [kind, ids, was] of [
    ['workspaces', target.workspaceIds, current?.workspaceIds],
    ['projects', target.projectIds, current?.projectIds],
  ] as const) {
    if (was && was.size === ids.size && [...ids].every((id) => was.has(id))) continue;
    await removeAssignments(trx, kind, varset.id, 'all');
    await addAssignments(trx, kind, varset.id, [...ids]);
  }
}
