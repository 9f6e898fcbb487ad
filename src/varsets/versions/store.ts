import { boundOnce, compiledOnce } from '../../db/compiled-once.js';
import { appendAtCommit, type Db, type Trx } from '../../db/transaction.js';
import type { Page } from '../../common/page.js';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { fromJson, jsonArrayOf, jsonObjectOf } from '../../db/json.js';
import type { VariableRow } from '../../variables/model.js';
import { selectVarsets } from '../store.js';
import type { Varset } from '../model.js';
import { versionFromRow, type Change, type UndoableVersion, type VarsetState, type VarsetVersion } from './model.js';

/** The SQL of set versions: a set's state as versions see it, and the versions themselves. */

const STATE_FIELDS = ['id', 'key', 'value', 'description', 'category', 'hcl', 'sensitive'] as const;

/** The number of the set's newest version (null: none), as a column of a statement that selects sets. */
export const newestVersionNumber = (eb: ExpressionBuilder<Database, 'varsets'>) =>
  eb.selectFrom('varset_versions').select('varset_versions.number').whereRef('varset_versions.varset_id', '=', 'varsets.id').orderBy('varset_versions.number', 'desc').limit(1);

/** Sets, each with the number of its newest version (`last_number`). */
const withNewestNumber = (sets: SelectQueryBuilder<Database, 'varsets', {}>) => selectVarsets(sets).select((eb) => [newestVersionNumber(eb).as('last_number')]);

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
      .select(jsonArrayOf(db, jsonObjectOf(db, Object.fromEntries(STATE_FIELDS.map((field) => [field, sql.ref(`varset_variables.${field}`)]))), []).as('variables'))
      .whereRef('varset_variables.varset_id', '=', 'varsets.id')
      .as('variables'),
  ]);

const stateOfVarset = compiledOnce((db, id: string) => withStates(db, db.selectFrom('varsets').where('varsets.id', '=', id)));
const statesOwnedBy = compiledOnce((db, projectId: string) => withStates(db, db.selectFrom('varsets').where('varsets.project_id', '=', projectId)));

const varsetAndNewestNumber = compiledOnce((db, id: string) => withNewestNumber(db.selectFrom('varsets').where('varsets.id', '=', id)));

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
export async function findVarsetsAssignedTo(db: Db, kind: 'workspaces' | 'projects', id: string): Promise<VarsetAtNumber[]> {
  const assigned =
    kind === 'workspaces'
      ? db.selectFrom('varset_workspaces').select('varset_workspaces.varset_id').where('varset_workspaces.workspace_id', '=', id)
      : db.selectFrom('varset_projects').select('varset_projects.varset_id').where('varset_projects.project_id', '=', id);
  const rows = await withNewestNumber(db.selectFrom('varsets').where('varsets.id', 'in', assigned)).execute();
  return rows.map(splitNewestNumber);
}

function splitNewestNumber<R extends { last_number: unknown }>(row: R): { varset: Omit<R, 'last_number'>; lastNumber: number } {
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
          { key: v.key, value: v.value, description: v.description, category: v.category, hcl: Boolean(v.hcl), sensitive: Boolean(v.sensitive) },
        ]),
      ),
      workspaceIds: new Set(fromJson<string[]>(workspace_ids)),
      projectIds: new Set(fromJson<string[]>(project_ids)),
    },
    lastNumber: Number(last_number ?? 0),
  };
}

const lastNumber = compiledOnce((db, varsetId: string) => db.selectFrom('varset_versions').select('number').where('varset_id', '=', varsetId).orderBy('number', 'desc').limit(1));

/** The number of the set's newest version; 0 when it has none. */
export async function findLastVersionNumber(db: Db, varsetId: string): Promise<number> {
  const [row] = await lastNumber(db, varsetId);
  return row ? Number(row.number) : 0;
}

/** A version and, apart, what undoing it takes. */
export type RecordedVersion = Omit<VarsetVersion, 'organizationName'> & { sealed: Record<string, string> };

export function insertVersion(trx: Trx, version: RecordedVersion): void {
  const { actor } = version;
  const sealed = Object.keys(version.sealed).length ? JSON.stringify(version.sealed) : null;
  appendAtCommit(
    trx,
    INSERT_VERSION(
      trx,
      version.id,
      version.varsetId,
      version.organizationId,
      version.projectId,
      version.number,
      version.action,
      version.rolledBackTo,
      version.varsetName,
      version.createdAt,
      actor.tokenId,
      actor.kind,
      actor.teamId,
      actor.description,
      version.requestId,
      JSON.stringify(version.changes),
      sealed,
    ),
  );
}

/** Every write to a set runs it: built and compiled once. */
const INSERT_VERSION = boundOnce(
  (
    db,
    id: string,
    varsetId: string,
    organizationId: string,
    projectId: string | null,
    number: number,
    action: VarsetVersion['action'],
    rolledBackTo: number | null,
    varsetName: string,
    createdAt: string,
    tokenId: string,
    kind: VarsetVersion['actor']['kind'],
    teamId: string | null,
    description: string,
    requestId: string,
    changes: string,
    sealed: string | null,
  ) =>
    db.insertInto('varset_versions').values({
      id,
      varset_id: varsetId,
      organization_id: organizationId,
      project_id: projectId,
      number,
      action,
      rolled_back_to: rolledBackTo,
      varset_name: varsetName,
      created_at: createdAt,
      actor_token_id: tokenId,
      actor_kind: kind,
      actor_team_id: teamId,
      actor_description: description,
      request_id: requestId,
      changes,
      sealed,
    }),
);

const SHOWN_COLUMNS = [
  'varset_versions.id',
  'varset_versions.varset_id',
  'varset_versions.organization_id',
  'varset_versions.project_id',
  'varset_versions.number',
  'varset_versions.action',
  'varset_versions.rolled_back_to',
  'varset_versions.varset_name',
  'varset_versions.created_at',
  'varset_versions.actor_token_id',
  'varset_versions.actor_kind',
  'varset_versions.actor_team_id',
  'varset_versions.actor_description',
  'varset_versions.request_id',
  'varset_versions.changes',
  'organizations.name as organization_name',
] as const;

/** Versions as responses show them: with their organization's name. */
const selectVersions = (db: Db) => db.selectFrom('varset_versions').innerJoin('organizations', 'organizations.id', 'varset_versions.organization_id').select(SHOWN_COLUMNS);

const versionById = compiledOnce((db, id: string) => selectVersions(db).where('varset_versions.id', '=', id));

export async function findVersion(db: Db, id: string): Promise<VarsetVersion | undefined> {
  const [row] = await versionById(db, id);
  return row && versionFromRow(row);
}

const newestVersion = compiledOnce((db, varsetId: string) =>
  selectVersions(db).where('varset_versions.varset_id', '=', varsetId).orderBy('varset_versions.number', 'desc').limit(1),
);

/** The set's newest version: for a deleted set, its deletion. */
export async function findNewestVersion(db: Db, varsetId: string): Promise<VarsetVersion | undefined> {
  const [row] = await newestVersion(db, varsetId);
  return row && versionFromRow(row);
}

/**
 * A page of the set's versions, newest first, and how many it has. A set's versions are
 * numbered 1 to its newest without a gap, so the newest number is the count, and a page is a
 * range of numbers read from the index: two lookups, however long the history.
 */
export async function pageOfVersions(db: Db, varsetId: string, page: Page): Promise<{ rows: VarsetVersion[]; total: number }> {
  const total = await findLastVersionNumber(db, varsetId);
  const highest = total - (page.number - 1) * page.size;
  if (highest < 1) return { rows: [], total };
  const rows = await PAGE_OF_VERSIONS(db, varsetId, highest, Math.max(1, highest - page.size + 1));
  return { rows: rows.map(versionFromRow), total };
}

const PAGE_OF_VERSIONS = compiledOnce((db, varsetId: string, highest: number, lowest: number) =>
  selectVersions(db)
    .where('varset_versions.varset_id', '=', varsetId)
    .where('varset_versions.number', '<=', highest)
    .where('varset_versions.number', '>=', lowest)
    .orderBy('varset_versions.number', 'desc'),
);

/** The versions after `number`, newest first, with what undoing each takes. */
export async function findVersionsAfter(db: Db, varsetId: string, number: number): Promise<UndoableVersion[]> {
  const rows = await db
    .selectFrom('varset_versions')
    .select(['number', 'changes', 'sealed'])
    .where('varset_id', '=', varsetId)
    .where('number', '>', number)
    .orderBy('number', 'desc')
    .execute();
  return rows.map((row) => ({
    number: Number(row.number),
    changes: JSON.parse(row.changes) as Change[],
    sealed: row.sealed === null ? {} : (JSON.parse(row.sealed) as Record<string, string>),
  }));
}
