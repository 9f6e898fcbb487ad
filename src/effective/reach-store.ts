import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../db/schema.js';
import { VARIABLE_COLUMNS, variableFromRow, type Variable } from '../variables/model.js';
import type { WorkspacePlace } from '../workspaces/model.js';
import type { Db } from '../db/transaction.js';

/**
 * The SQL of what a set reaches, for many workspaces at once: the workspaces a set reaches,
 * and every stored candidate value of them. Each function is one statement whatever the number
 * of workspaces, sets and variables: the workspaces are named by a subquery, never by a list of
 * ids (a subquery of `IN`, where a workspace named twice counts once).
 */
type Eb = ExpressionBuilder<Database, any>;

/** A workspace a set reaches, with its name (a preview lists workspaces by it). */
export interface ReachedWorkspace extends WorkspacePlace {
  name: string;
}

/** A set that reaches at least one of the workspaces, and what it is. */
export interface ReachingSetRow {
  id: string;
  name: string;
  ownerProjectId: string | null;
  global: boolean;
  priority: boolean;
}

/** A set assigned to a workspace or to a project, among those the workspaces are in. */
export interface Assignment {
  varsetId: string;
  targetId: string;
}

/** The ids of the workspaces a set reaches: its organization's when it is global, those of the projects it is assigned to, those it is assigned to. */
function reachedIds(eb: Eb, varsetId: string) {
  const global = eb
    .selectFrom('varsets')
    .select('varsets.organization_id')
    .where('varsets.id', '=', varsetId)
    .where('varsets.global', '=', true);
  return eb
    .selectFrom('workspaces')
    .select('workspaces.id')
    .where('workspaces.organization_id', 'in', global)
    .unionAll(
      eb
        .selectFrom('varset_workspaces')
        .select('varset_workspaces.workspace_id as id')
        .where('varset_workspaces.varset_id', '=', varsetId),
    )
    .unionAll(
      eb
        .selectFrom('varset_projects')
        .innerJoin('workspaces', 'workspaces.project_id', 'varset_projects.project_id')
        .select('workspaces.id')
        .where('varset_projects.varset_id', '=', varsetId),
    );
}

const reachedProjectIds = (eb: Eb, varsetId: string) =>
  eb.selectFrom('workspaces').select('workspaces.project_id').where('workspaces.id', 'in', reachedIds(eb, varsetId));

/** The ids of the sets that reach any of the workspaces the set reaches: the organization's global sets, and those assigned to the workspaces or their projects. */
function reachingSetIds(eb: Eb, organizationId: string, varsetId: string) {
  return eb
    .selectFrom('varsets')
    .select('varsets.id')
    .where('varsets.organization_id', '=', organizationId)
    .where('varsets.global', '=', true)
    .unionAll(
      eb
        .selectFrom('varset_workspaces')
        .select('varset_workspaces.varset_id as id')
        .where('varset_workspaces.workspace_id', 'in', reachedIds(eb, varsetId)),
    )
    .unionAll(
      eb
        .selectFrom('varset_projects')
        .select('varset_projects.varset_id as id')
        .where('varset_projects.project_id', 'in', reachedProjectIds(eb, varsetId)),
    );
}

export async function findWorkspacesReachedBy(db: Db, varsetId: string): Promise<ReachedWorkspace[]> {
  return db
    .selectFrom('workspaces')
    .select(['id', 'name', 'organization_id', 'project_id'])
    .where('id', 'in', (eb) => reachedIds(eb, varsetId))
    .execute();
}

/** The variables of every workspace the set reaches. */
export async function findVariablesOfWorkspacesReachedBy(db: Db, varsetId: string): Promise<Variable[]> {
  const rows = await db
    .selectFrom('workspace_variables')
    .select([...VARIABLE_COLUMNS, 'workspace_id'])
    .where('workspace_id', 'in', (eb) => reachedIds(eb, varsetId))
    .execute();
  return rows.map((row) => variableFromRow({ kind: 'workspace', id: row.workspace_id }, row));
}

/** Which sets are assigned to the workspaces the set reaches, and to their projects. */
export async function findAssignmentsOfWorkspacesReachedBy(
  db: Db,
  varsetId: string,
): Promise<{ workspaces: Assignment[]; projects: Assignment[] }> {
  const workspaces = await db
    .selectFrom('varset_workspaces')
    .select(['varset_id as varsetId', 'workspace_id as targetId'])
    .where('workspace_id', 'in', (eb) => reachedIds(eb, varsetId))
    .execute();
  const projects = await db
    .selectFrom('varset_projects')
    .select(['varset_id as varsetId', 'project_id as targetId'])
    .where('project_id', 'in', (eb) => reachedProjectIds(eb, varsetId))
    .execute();
  return { workspaces, projects };
}

/** The variables of the sets that reach any workspace the set reaches (see `reachingSetIds`), each with its set; a set without variables is left out. */
export async function findVariablesOfSetsReachingWorkspacesReachedBy(
  db: Db,
  organizationId: string,
  varsetId: string,
): Promise<{ set: ReachingSetRow; variable: Variable }[]> {
  const rows = await db
    .selectFrom('varset_variables')
    .innerJoin('varsets', 'varsets.id', 'varset_variables.varset_id')
    .select(VARIABLE_COLUMNS.map((column) => `varset_variables.${column}` as const))
    // The flags keep their column names, by which they are read as booleans (src/db/boolean-columns.ts).
    .select([
      'varsets.id as set_id',
      'varsets.name as set_name',
      'varsets.project_id as set_project_id',
      'varsets.global',
      'varsets.priority',
    ])
    .where('varset_variables.varset_id', 'in', (eb) => reachingSetIds(eb, organizationId, varsetId))
    .execute();
  return rows.map((row) => ({
    set: {
      id: row.set_id,
      name: row.set_name,
      ownerProjectId: row.set_project_id,
      global: row.global,
      priority: row.priority,
    },
    variable: variableFromRow({ kind: 'varset', id: row.set_id }, row),
  }));
}
