import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import type { Target } from '../auth/actions.js';
import type { Db } from '../db/transaction.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import { NotFound } from '../common/errors.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Variable } from '../variables/model.js';
import { getWorkspace } from '../workspaces/service.js';
import { loadCandidates } from './load.js';
import type { EffectiveValue, EffectiveVariable, OpenedVariable, RunVariableInput } from './model.js';
import { resolveVariables, type ResolvedVariable, type SourcedValue } from './resolve.js';
import { findRunEffectiveVariables, findRunWorkspace, insertRunEffectiveVariables } from './store.js';
import { locationOfWorkspace } from '../common/location.js';

/**
 * Effective variables: which value of each variable a run of a workspace gets, and where it
 * comes from. Reading them needs Read variables on the workspace; sensitive values are kept
 * as stored and never shown (see serialize.ts).
 */

export type { OpenedVariable } from './model.js';

type RunCandidate = RunVariableInput & { category: 'terraform' };

async function resolveWorkspace(db: Db, workspace: WorkspacePlace, runVariables: readonly RunVariableInput[] = []) {
  const { workspaceVariables, varsets } = await loadCandidates(db, workspace);
  return resolveVariables<Variable | RunCandidate>({
    workspaceVariables,
    runVariables: runVariables.map((v) => ({ key: v.key, value: v.value, category: 'terraform' })),
    varsets,
  });
}

function effectiveValue(value: SourcedValue<Variable | RunCandidate>): EffectiveValue {
  const { variable, source, level } = value;
  if (!('id' in variable)) {
    // Run variables are HCL expressions, never sensitive.
    return {
      variableId: null,
      versionId: null,
      value: variable.value,
      description: '',
      hcl: true,
      sensitive: false,
      source,
      level,
    };
  }
  return {
    variableId: variable.id,
    versionId: variable.version_id,
    value: variable.value,
    description: variable.description,
    hcl: variable.hcl,
    sensitive: variable.sensitive,
    ...(variable.value_needed ? { valueNeeded: true } : {}),
    source,
    level,
  };
}

function toEffective(resolved: ResolvedVariable<Variable | RunCandidate>[]): EffectiveVariable[] {
  return resolved.map((r) => ({
    key: r.key,
    category: r.category,
    winner: effectiveValue(r.winner),
    overridden: r.overridden.map(effectiveValue),
  }));
}

/** HCP Terraform's all-vars: the winning workspace or set variable of each key and category. */
export async function listAllVariables(ctx: Context, workspaceId: string): Promise<Variable[]> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  // Without run variables every winner is a stored variable.
  return (await resolveWorkspace(ctx.store.db, workspace)).map((r) => r.winner.variable as Variable);
}

export async function showWorkspaceEffectiveVariables(ctx: Context, workspaceId: string): Promise<EffectiveVariable[]> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  return toEffective(await resolveWorkspace(ctx.store.db, workspace));
}

/**
 * Resolves the workspace's variables with the run's own and stores the result with the run,
 * in the transaction that creates it: the run keeps the values it was created with, whatever
 * happens to the workspace and its sets afterwards. Sensitive values are copied sealed.
 */
export async function snapshotEffectiveVariables(
  trx: Db,
  workspace: WorkspacePlace,
  runId: string,
  runVariables: readonly RunVariableInput[],
): Promise<void> {
  await insertRunEffectiveVariables(trx, runId, toEffective(await resolveWorkspace(trx, workspace, runVariables)));
}

/**
 * The effective variables stored with a run; needs read access to the run and Read variables
 * on its workspace. A run without any variables has none to show (an empty list).
 */
export async function showRunEffectiveVariables(ctx: Context, runId: string): Promise<EffectiveVariable[]> {
  const found = await findRunWorkspace(ctx.store.db, runId);
  if (!found) throw new NotFound();
  const { workspace } = found;
  const target: Target = locationOfWorkspace(workspace);
  ensure(ctx.subject, 'run:read', target);
  ensure(ctx.subject, 'workspace:read-variables', target);
  return findRunEffectiveVariables(ctx.store.db, found.runId);
}

/**
 * The winning value of each variable stored with a run, sensitive values opened. Who may
 * have them is the caller's decision (the runs service allows only the run's own token).
 */
export async function openRunVariables(db: Db, sealer: Sealer, runId: string): Promise<OpenedVariable[]> {
  return (await findRunEffectiveVariables(db, runId)).map(({ key, category, winner }) => ({
    key,
    category,
    value: winner.sensitive ? sealer.open(winner.value) : winner.value,
    hcl: winner.hcl,
    sensitive: winner.sensitive,
  }));
}
