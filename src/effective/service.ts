import type { Kysely } from 'kysely';
import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import type { Database } from '../db/schema.js';
import { notFound } from '../jsonapi/errors.js';
import type { VarsetVariable } from '../varsets/store.js';
import type { WorkspaceVariable } from '../workspace-variables/store.js';
import { findRun } from '../runs/store.js';
import { getWorkspace } from '../workspaces/service.js';
import { loadCandidates, type WorkspaceLocation } from './load.js';
import { findRunEffectiveVariables, insertRunEffectiveVariables } from './store.js';
import { resolveVariables, type Category, type PrecedenceLevel, type ResolvedVariable, type SourcedValue, type ValueSource } from './resolve.js';

/**
 * Effective variables: which value of each variable a run of a workspace gets, and where it
 * comes from. Reading them needs Read variables on the workspace; sensitive values are kept
 * as stored and never shown (see serialize.ts).
 */

/** A run's variable: a Terraform input variable whose value is an HCL expression. */
export interface RunVariableInput {
  key: string;
  value: string;
}

type RunCandidate = RunVariableInput & { category: 'terraform' };
type StoredCandidate = WorkspaceVariable | VarsetVariable;

/** One value of a variable, with where it comes from; the form resolutions are shown and stored in. */
export interface EffectiveValue {
  /** The workspace or set variable's id; null for a run variable. */
  variableId: string | null;
  versionId: string | null;
  /** As stored: a sensitive value stays sealed here and is never shown. */
  value: string;
  description: string;
  hcl: boolean;
  sensitive: boolean;
  source: ValueSource;
  level: PrecedenceLevel;
}

export interface EffectiveVariable {
  key: string;
  category: Category;
  winner: EffectiveValue;
  /** Highest precedence first. */
  overridden: EffectiveValue[];
}

async function resolveWorkspace(db: Kysely<Database>, workspace: WorkspaceLocation, runVariables: readonly RunVariableInput[] = []) {
  const { workspaceVariables, varsets } = await loadCandidates(db, workspace);
  return resolveVariables<StoredCandidate | RunCandidate>({
    workspaceVariables,
    runVariables: runVariables.map((v) => ({ key: v.key, value: v.value, category: 'terraform' })),
    varsets,
  });
}

function effectiveValue(value: SourcedValue<StoredCandidate | RunCandidate>): EffectiveValue {
  const { variable, source, level } = value;
  if (!('id' in variable)) {
    // Run variables are HCL expressions, never sensitive.
    return { variableId: null, versionId: null, value: variable.value, description: '', hcl: true, sensitive: false, source, level };
  }
  return {
    variableId: variable.id,
    versionId: variable.version_id,
    value: variable.value,
    description: variable.description,
    hcl: variable.hcl,
    sensitive: variable.sensitive,
    source,
    level,
  };
}

function toEffective(resolved: ResolvedVariable<StoredCandidate | RunCandidate>[]): EffectiveVariable[] {
  return resolved.map((r) => ({ key: r.key, category: r.category, winner: effectiveValue(r.winner), overridden: r.overridden.map(effectiveValue) }));
}

/** HCP Terraform's all-vars: the winning workspace or set variable of each key and category. */
export async function listAllVariables(ctx: Context, workspaceId: string): Promise<StoredCandidate[]> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  // Without run variables every winner is a stored variable.
  return (await resolveWorkspace(ctx.store.db, workspace)).map((r) => r.winner.variable as StoredCandidate);
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
export async function snapshotEffectiveVariables(trx: Kysely<Database>, workspace: WorkspaceLocation, runId: string, runVariables: readonly RunVariableInput[]): Promise<void> {
  await insertRunEffectiveVariables(trx, runId, toEffective(await resolveWorkspace(trx, workspace, runVariables)));
}

/**
 * The effective variables stored with a run; needs read access to the run and Read variables
 * on its workspace. A run without any variables has none to show (an empty list).
 */
export async function showRunEffectiveVariables(ctx: Context, runId: string): Promise<EffectiveVariable[]> {
  const found = await findRun(ctx.store.db, runId);
  if (!found) throw notFound();
  ensure(ctx.subject, 'run:read', found.location);
  ensure(ctx.subject, 'workspace:read-variables', found.location);
  return findRunEffectiveVariables(ctx.store.db, found.run.id);
}
