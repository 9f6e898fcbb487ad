import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import type { Trx } from '../db/transaction.js';
import { now } from '../common/ids.js';
import { Conflict, NotFound, Unprocessable } from '../common/errors.js';
import { deleteVariables, insertVariables, newVersionId } from '../variables/service.js';
import type { Variable } from '../variables/model.js';
import { addAssignments, findProjectsById, findWorkspacesById, removeAssignments } from './assignment-store.js';
import { globalOrganizationOf, targetOf, variablesOf, type Varset, type VarsetView } from './model.js';
import { assertNameFree, assertNoGlobalConflict } from './rules.js';
import { findVarsetState, type FoundState } from './state-store.js';
import { insertVarset, setVariablesGlobal, updateVarset } from './store.js';
import { loadView, readableBy } from './views.js';
import {
  undoVersions,
  type Change,
  type VariableState,
  type VarsetState,
  type VarsetVersion,
} from './versions/model.js';
import type { Before } from './versions/record.js';
import { findLastVersionNumber, findVersion, findVersionsAfter } from './versions/store.js';
import { setEvent, writeVarset, type Applied } from './write-path.js';

/** What a rollback's refusals are about: the version it restores. */
const AT = 'version';

export interface RollbackRequest {
  versionId: string;
  /** Restore the rest when workspaces or projects the set was assigned to are gone (otherwise a 422). */
  skipMissing: boolean;
  /** Answer what the rollback would change, and change nothing. */
  dryRun: boolean;
  /** Roll back only while this version is the set's newest (a 409 otherwise): no other write's change is taken back. */
  ifNewest?: string | undefined;
}

/** The set after the rollback, and the version it made (null: it changed nothing). */
export interface RollbackResult {
  view: VarsetView;
  version: { id: string; number: number; changes: Change[] } | null;
}

/**
 * Makes the set again what it was at a version, as a new version, under every rule a write
 * obeys: the permission to change the set (to create it, for a deleted set, which only the
 * organization's owners may see), its name free, the global rule. Workspaces and projects
 * that no longer exist (or that a project-owned set may no longer reach) are a 422 naming
 * them, unless the request asks to restore the rest. A dry run makes the rollback and takes it
 * back: it answers exactly what the rollback would, and leaves nothing behind.
 */
export async function rollbackVarset(
  ctx: Context,
  varsetId: string,
  request: RollbackRequest,
): Promise<RollbackResult> {
  const version = await findVersion(ctx.store.db, request.versionId);
  if (!version || version.varsetId !== varsetId) throw new NotFound();
  const { result, version: made } = await writeVarset(ctx, {
    varsetId,
    organization: version.organizationId,
    action: 'rollback',
    rolledBackTo: version.number,
    takeBack: request.dryRun,
    open: async (trx) => {
      const start = await openForRollback(ctx, trx, version);
      if (request.ifNewest !== undefined) await assertNewest(trx, varsetId, request.ifNewest);
      return start;
    },
    apply: (trx, opened) => restore(ctx, trx, version, opened, request.skipMissing),
  });
  return { view: result, version: made && { id: made.id, number: made.number, changes: made.changes } };
}

/** Where a rollback starts: the set as it is (undefined once deleted), and that as its version compares it. */
interface Start {
  current: FoundState | undefined;
  before: Before;
}

/** The set as it is, if the subject may change it; once deleted, its absence, if the subject may restore it. */
async function openForRollback(ctx: Context, trx: Trx, version: VarsetVersion): Promise<Start> {
  const current = await findVarsetState(trx, version.varsetId);
  if (current) {
    ensure(ctx.subject, 'varset:update', targetOf(current.varset));
    return { current, before: current };
  }
  ensure(ctx.subject, 'varset:read-deleted', { organizationId: version.organizationId });
  ensure(
    ctx.subject,
    'varsets:create',
    targetOf({ organization_id: version.organizationId, project_id: version.projectId, global: false }),
  );
  return {
    current,
    before: { varset: null, state: null, lastNumber: await findLastVersionNumber(trx, version.varsetId) },
  };
}

/**
 * Refuses the rollback unless `versionId` is the set's newest version, read under the
 * organization's lock the write holds: no write can come between this check and the rollback.
 */
async function assertNewest(trx: Trx, varsetId: string, versionId: string): Promise<void> {
  const expected = await findVersion(trx, versionId);
  const newest = await findLastVersionNumber(trx, varsetId);
  if (expected?.varsetId === varsetId && expected.number === newest) return;
  throw new Conflict(
    `the set changed since: its newest version is ${newest}, not the one if-newest-version names, and the rollback would take that change back too`,
  );
}

/** Undoes the versions after `version` from the set as it is, checks the result as any write of a set, and writes what differs. */
async function restore(
  ctx: Context,
  trx: Trx,
  version: VarsetVersion,
  { current, before }: Start,
  skipMissing: boolean,
): Promise<Applied<VarsetView>> {
  const target = undoVersions(current?.state ?? null, await findVersionsAfter(trx, version.varsetId, version.number));
  if (!target)
    throw new Unprocessable(
      `version ${version.number} is the deletion of the set: there is nothing to restore from it`,
      AT,
    );
  if (!current && version.projectId !== null && !(await findProjectsById(trx, [version.projectId])).length) {
    throw new Unprocessable(`the project that owned the set (${version.projectId}) no longer exists`, AT);
  }
  const timestamp = now();
  const attributes = {
    name: target.name,
    description: target.description,
    global: target.global,
    priority: target.priority,
    updated_at: timestamp,
  };
  const varset: Varset = current
    ? { ...current.varset, ...attributes }
    : {
        id: version.varsetId,
        organization_id: version.organizationId,
        organization_name: version.organizationName,
        project_id: version.projectId,
        ...attributes,
        created_at: timestamp,
      };
  await keepReachable(trx, varset, target, skipMissing);
  await assertNameFree(trx, varset);
  await assertNoGlobalConflict(
    trx,
    varset,
    [...target.variables.values()].map((v) => ({ key: v.key, category: v.category, field: AT })),
  );

  await writeState(trx, varset, current?.state ?? null, target, timestamp);
  return {
    result: readableBy(ctx.subject, [await loadView(trx, varset)])[0]!,
    before,
    event: (made) =>
      setEvent(varset, 'rollback', {
        'rolled-back-to': String(version.number),
        ...(made ? { version: String(made.number) } : {}),
      }),
  };
}

/**
 * Drops from `target` the workspaces and projects the set can no longer be assigned to (gone,
 * or outside the project that owns the set), when the request allows; a 422 naming them otherwise.
 */
async function keepReachable(trx: Trx, varset: Varset, target: VarsetState, skipMissing: boolean): Promise<void> {
  const inReach = (place: { organization_id: string; project_id?: string }, projectId: string) =>
    place.organization_id === varset.organization_id && (varset.project_id === null || projectId === varset.project_id);
  const workspaces = new Set(
    (await findWorkspacesById(trx, [...target.workspaceIds])).filter((w) => inReach(w, w.project_id)).map((w) => w.id),
  );
  const projects = new Set(
    (await findProjectsById(trx, [...target.projectIds])).filter((p) => inReach(p, p.id)).map((p) => p.id),
  );
  const missing = [
    ...[...target.workspaceIds].filter((id) => !workspaces.has(id)),
    ...[...target.projectIds].filter((id) => !projects.has(id)),
  ];
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
  a.key === b.key &&
  a.value === b.value &&
  a.description === b.description &&
  a.category === b.category &&
  a.hcl === b.hcl &&
  a.sensitive === b.sensitive &&
  (a.value_needed === true) === (b.value_needed === true);

/** Writes `target` over the set's `current` state (null: the set is gone): only what differs. */
async function writeState(
  trx: Trx,
  varset: Varset,
  current: VarsetState | null,
  target: VarsetState,
  timestamp: string,
): Promise<void> {
  const { name, description, global, priority, updated_at } = varset;
  if (current) await updateVarset(trx, varset.id, { name, description, global, priority, updated_at });
  else await insertVarset(trx, varset);
  const owner = variablesOf(varset);
  const currentVariables = current?.variables ?? new Map<string, VariableState>();
  // Replaced whole, removed first: two variables trading keys never meet in the unique index.
  const replaced = [...currentVariables]
    .filter(([id, v]) => !target.variables.has(id) || !sameVariable(v, target.variables.get(id)!))
    .map(([id]) => id);
  await deleteVariables(trx, owner, replaced);
  const restored: Variable[] = [...target.variables]
    .filter(([id, v]) => !currentVariables.has(id) || !sameVariable(currentVariables.get(id)!, v))
    .map(([id, v]) => ({ ...v, id, owner, version_id: newVersionId(), created_at: timestamp }));
  await insertVariables(
    trx,
    owner,
    restored.map((variable) => ({
      variable,
      candidate: { key: variable.key, category: variable.category, field: AT },
    })),
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
