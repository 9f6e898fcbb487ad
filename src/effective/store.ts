import type { Insertable, Selectable } from 'kysely';
import type { RunEffectiveValueTable } from '../db/schema.js';
import { inSlices } from '../common/slices.js';
import { newId } from '../common/ids.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { EffectiveValue, EffectiveVariable } from './model.js';
import type { PrecedenceLevel, ValueSource } from './resolve.js';
import type { Db } from '../db/transaction.js';

/** The SQL of runs' effective variables: one row per value, written once when the run is created. */
type Row = Selectable<RunEffectiveValueTable>;

/** The workspace a run belongs to, located in its organization and project; undefined when there is no such run. */
export async function findRunWorkspace(
  db: Db,
  runId: string,
): Promise<{ runId: string; workspace: WorkspacePlace } | undefined> {
  const row = await db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['runs.id as run_id', 'workspaces.id', 'workspaces.organization_id', 'workspaces.project_id'])
    .where('runs.id', '=', runId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { run_id, ...workspace } = row;
  return { runId: run_id, workspace };
}

function toRow(
  runId: string,
  position: number,
  rank: number,
  variable: EffectiveVariable,
  value: EffectiveValue,
): Insertable<RunEffectiveValueTable> {
  const { source } = value;
  const set = source.kind === 'varset' ? source : undefined;
  return {
    id: newId('rev'),
    run_id: runId,
    position,
    rank,
    key: variable.key,
    category: variable.category,
    precedence: value.level,
    source: source.kind,
    varset_id: set?.id ?? null,
    varset_name: set?.name ?? null,
    varset_scope: set?.scope ?? null,
    varset_owner: set?.owner ?? null,
    varset_priority: set ? set.priority : null,
    varset_version: set ? set.version : null,
    variable_id: value.variableId,
    version_id: value.versionId,
    value: value.value,
    description: value.description,
    hcl: value.hcl,
    sensitive: value.sensitive,
  };
}

export async function insertRunEffectiveVariables(
  db: Db,
  runId: string,
  variables: EffectiveVariable[],
): Promise<void> {
  const rows = variables.flatMap((variable, position) =>
    [variable.winner, ...variable.overridden].map((value, rank) => toRow(runId, position, rank, variable, value)),
  );
  // 20 columns a row: a slice stays far below both stores' limits on bound parameters.
  await inSlices(rows, async (slice) => {
    await db.insertInto('run_effective_values').values(slice).execute();
  });
}

function sourceOf(row: Row): ValueSource {
  if (row.source !== 'varset') return { kind: row.source };
  return {
    kind: 'varset',
    id: row.varset_id!,
    name: row.varset_name!,
    scope: row.varset_scope!,
    owner: row.varset_owner!,
    priority: row.varset_priority === true,
    version: row.varset_version === null ? null : Number(row.varset_version),
  };
}

/** A run's effective variables, in the order they were resolved in: one query. */
export async function findRunEffectiveVariables(db: Db, runId: string): Promise<EffectiveVariable[]> {
  const rows = await db
    .selectFrom('run_effective_values')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position')
    .orderBy('rank')
    .execute();
  const variables: EffectiveVariable[] = [];
  for (const row of rows) {
    const value: EffectiveValue = {
      variableId: row.variable_id,
      versionId: row.version_id,
      value: row.value,
      description: row.description,
      hcl: row.hcl,
      sensitive: row.sensitive,
      source: sourceOf(row),
      level: row.precedence as PrecedenceLevel,
    };
    if (row.rank === 0) variables.push({ key: row.key, category: row.category, winner: value, overridden: [] });
    else variables[variables.length - 1]!.overridden.push(value);
  }
  return variables;
}
