import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { VarsetReadScope } from '../auth/policy.js';
import type { Database } from '../db/schema.js';

/** The SQL side of who may read which variable sets; the decisions themselves are the policy's. */

/** The sets a caller without organization-wide access may read (the policy's `varsetListScope`), as one condition. */
export function readableBy(eb: ExpressionBuilder<Database, 'varsets'>, readable: VarsetReadScope) {
  const conditions = [];
  if (readable.global) conditions.push(eb('varsets.global', '=', true));
  if (readable.workspaceIds.length > 0) {
    conditions.push(eb('varsets.id', 'in', eb.selectFrom('varset_workspaces').select('varset_workspaces.varset_id').where('varset_workspaces.workspace_id', 'in', readable.workspaceIds)));
  }
  if (readable.workspaceProjectIds.length > 0) {
    const assignedInProjects = eb
      .selectFrom('varset_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
      .select('varset_workspaces.varset_id')
      .where('workspaces.project_id', 'in', readable.workspaceProjectIds);
    conditions.push(eb('varsets.id', 'in', assignedInProjects));
  }
  if (readable.projectIds.length > 0) {
    conditions.push(eb('varsets.id', 'in', eb.selectFrom('varset_projects').select('varset_projects.varset_id').where('varset_projects.project_id', 'in', readable.projectIds)));
  }
  if (readable.ownerProjectIds.length > 0) conditions.push(eb('varsets.project_id', 'in', readable.ownerProjectIds));
  return conditions.length > 0 ? eb.or(conditions) : sql<boolean>`1 = 0`;
}

/** Where a set is assigned, with the project of each workspace: what deciding a read by a team needs. */
export async function findAssignments(db: Kysely<Database>, varsetId: string): Promise<{ workspaces: { id: string; projectId: string }[]; projectIds: string[] }> {
  const [workspaces, projects] = await Promise.all([
    db
      .selectFrom('varset_workspaces')
      .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
      .select(['workspaces.id', 'workspaces.project_id'])
      .where('varset_workspaces.varset_id', '=', varsetId)
      .execute(),
    db.selectFrom('varset_projects').select('project_id').where('varset_id', '=', varsetId).execute(),
  ]);
  return { workspaces: workspaces.map((w) => ({ id: w.id, projectId: w.project_id })), projectIds: projects.map((p) => p.project_id) };
}
