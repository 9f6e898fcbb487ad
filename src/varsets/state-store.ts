import { sql, type SelectQueryBuilder } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import type { Db } from '../db/transaction.js';
import type { Database } from '../db/schema.js';
import { fromJson, jsonArrayOf, jsonObjectOf } from '../db/json.js';
import type { VariableRow } from '../variables/model.js';
import type { Varset } from './model.js';
import { selectVarsets } from './store.js';
import type { VarsetState } from './versions/model.js';
import { newestVersionNumber } from './versions/store.js';

/** A set as its versions compare it: its state (attributes, variables with their stored values, assignments) and its newest version's number. */

const STATE_FIELDS = ['id', 'key', 'value', 'description', 'category', 'hcl', 'sensitive', 'value_needed'] as const;

/** Sets, each with the number of its newest version (`last_number`). */
const withNewestNumber = (sets: SelectQueryBuilder<Database, 'varsets', {}>) =>
  selectVarsets(sets).select((eb) => [newestVersionNumber(eb).as('last_number')]);

/**
 * Sets with all a version compares (their variables' stored values, their assignments' ids)
 * and their newest version's number, in one statement. Unordered: a state is compared by id,
 * and sorting is most of what such a statement costs.
 */
const withStates = (db: Db, sets: SelectQueryBuilder<Database, 'varsets', {}>) =>
  withNewestNumber(sets).select((eb) => [
    eb
      .selectFrom('varset_workspaces')
      .select(jsonArrayOf(db, sql.ref('varset_workspaces.workspace_id'), []).as('ids'))
      .whereRef('varset_workspaces.varset_id', '=', 'varsets.id')
      .as('workspace_ids'),
    eb
      .selectFrom('varset_projects')
      .select(jsonArrayOf(db, sql.ref('varset_projects.project_id'), []).as('ids'))
      .whereRef('varset_projects.varset_id', '=', 'varsets.id')
      .as('project_ids'),
    eb
      .selectFrom('varset_variables')
      .select(
        jsonArrayOf(
          db,
          jsonObjectOf(
            db,
            Object.fromEntries(STATE_FIELDS.map((field) => [field, sql.ref(`varset_variables.${field}`)])),
          ),
          [],
        ).as('variables'),
      )
      .whereRef('varset_variables.varset_id', '=', 'varsets.id')
      .as('variables'),
  ]);

const stateOfVarset = compiledOnce((db, id: string) =>
  withStates(db, db.selectFrom('varsets').where('varsets.id', '=', id)),
);
const statesOwnedBy = compiledOnce((db, projectId: string) =>
  withStates(db, db.selectFrom('varsets').where('varsets.project_id', '=', projectId)),
);

const varsetAndNewestNumber = compiledOnce((db, id: string) =>
  withNewestNumber(db.selectFrom('varsets').where('varsets.id', '=', id)),
);

/** A set and the number of its newest version (0: none). */
export interface VarsetAtNumber {
  varset: Varset;
  lastNumber: number;
}

/** A set and the number of its newest version, in one statement: what a version of a write of one variable needs. */
export async function findVarsetAndNewestNumber(db: Db, id: string): Promise<VarsetAtNumber | undefined> {
  const [row] = await varsetAndNewestNumber(db, id);
  return row && splitNewestNumber(row);
}

/** The sets assigned to a workspace or project, each with the number of its newest version: one statement. */
export async function findVarsetsAssignedTo(
  db: Db,
  kind: 'workspaces' | 'projects',
  id: string,
): Promise<VarsetAtNumber[]> {
  const assigned =
    kind === 'workspaces'
      ? db
          .selectFrom('varset_workspaces')
          .select('varset_workspaces.varset_id')
          .where('varset_workspaces.workspace_id', '=', id)
      : db
          .selectFrom('varset_projects')
          .select('varset_projects.varset_id')
          .where('varset_projects.project_id', '=', id);
  const rows = await withNewestNumber(db.selectFrom('varsets').where('varsets.id', 'in', assigned)).execute();
  return rows.map(splitNewestNumber);
}

function splitNewestNumber<R extends { last_number: unknown }>(
  row: R,
): { varset: Omit<R, 'last_number'>; lastNumber: number } {
  const { last_number, ...varset } = row;
  return { varset, lastNumber: Number(last_number ?? 0) };
}

type StateVariable = Pick<VariableRow, (typeof STATE_FIELDS)[number]>;
type StateRow = Awaited<ReturnType<typeof stateOfVarset>>[number];
/** A set at its newest number, with its state (attributes, variables with their stored values, assignments). */
export interface FoundState extends VarsetAtNumber {
  state: VarsetState;
}

/** A set, its state (attributes, variables with their stored values, assignments) and the number of its newest version (0: none): one statement. */
export async function findVarsetState(db: Db, id: string): Promise<FoundState | undefined> {
  const [row] = await stateOfVarset(db, id);
  return row && stateFromRow(row);
}

/** The same of every set a project owns: one statement. */
export async function findVarsetStatesOwnedBy(db: Db, projectId: string): Promise<FoundState[]> {
  return (await statesOwnedBy(db, projectId)).map(stateFromRow);
}

function stateFromRow(row: StateRow): FoundState {
  const { workspace_ids, project_ids, variables, last_number, ...varset } = row;
  return {
    varset,
    state: {
      name: varset.name,
      description: varset.description,
      global: varset.global,
      priority: varset.priority,
      variables: new Map(
        fromJson<StateVariable[]>(variables).map((v) => [
          v.id,
          {
            key: v.key,
            value: v.value,
            description: v.description,
            category: v.category,
            hcl: Boolean(v.hcl),
            sensitive: Boolean(v.sensitive),
            value_needed: Boolean(v.value_needed),
          },
        ]),
      ),
      workspaceIds: new Set(fromJson<string[]>(workspace_ids)),
      projectIds: new Set(fromJson<string[]>(project_ids)),
    },
    lastNumber: Number(last_number ?? 0),
  };
}
