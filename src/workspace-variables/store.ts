import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, WorkspaceVariableTable } from '../db/schema.js';
import { compareCodePoints } from '../common/code-points.js';

/** The SQL of workspace variables. Every function works on the database or a transaction. */
type Db = Kysely<Database>;

export type WorkspaceVariable = Selectable<WorkspaceVariableTable>;

/**
 * All variables of a workspace, by key (code point order), then category: one query. The
 * list is never paginated, so it is sorted here, the same way on both stores.
 */
export async function listVariables(db: Db, workspaceId: string): Promise<WorkspaceVariable[]> {
  const rows = await db.selectFrom('workspace_variables').selectAll().where('workspace_id', '=', workspaceId).execute();
  return rows.sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.category, b.category) || compareCodePoints(a.id, b.id));
}

export function findVariable(db: Db, workspaceId: string, id: string): Promise<WorkspaceVariable | undefined> {
  return db.selectFrom('workspace_variables').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

/** The id of the workspace's variable with this key and category, if there is one. */
export async function findVariableIdByKey(db: Db, workspaceId: string, key: string, category: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('workspace_variables')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .where('category', '=', category as WorkspaceVariable['category'])
    .executeTakeFirst();
  return row?.id;
}

export async function insertVariable(db: Db, variable: Insertable<WorkspaceVariableTable>): Promise<void> {
  await db.insertInto('workspace_variables').values(variable).execute();
}

export async function updateVariable(db: Db, id: string, changes: Updateable<WorkspaceVariableTable>): Promise<void> {
  await db.updateTable('workspace_variables').set(changes).where('id', '=', id).execute();
}

export async function deleteVariable(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('workspace_variables').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
