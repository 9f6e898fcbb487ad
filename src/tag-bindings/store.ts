import type { Db, Trx } from '../db/transaction.js';
import type { TagBinding, TagBindingOwner } from './model.js';

const COLUMNS = ['id', 'key', 'value'] as const;
const ownerColumn = (owner: TagBindingOwner) => (owner.kind === 'workspace' ? 'workspace_id' : 'project_id');

/** The bindings of one owner, in the order they were given. */
export async function bindingsOf(db: Db, owner: TagBindingOwner): Promise<TagBinding[]> {
  return db
    .selectFrom('tag_bindings')
    .select(COLUMNS)
    .where(ownerColumn(owner), '=', owner.id)
    .orderBy('position')
    .execute();
}

/** The bindings of many workspaces, or of many projects, in one statement. */
export async function bindingsOfMany(
  db: Db,
  kind: TagBindingOwner['kind'],
  ids: string[],
): Promise<Map<string, TagBinding[]>> {
  const found = new Map<string, TagBinding[]>();
  if (ids.length === 0) return found;
  const column = kind === 'workspace' ? 'workspace_id' : 'project_id';
  const rows = await db
    .selectFrom('tag_bindings')
    .select([...COLUMNS, column])
    .where(column, 'in', ids)
    .orderBy('position')
    .execute();
  for (const row of rows) {
    const ownerId = (row as Record<string, unknown>)[column] as string;
    const { id, key, value } = row;
    const list = found.get(ownerId);
    if (list) list.push({ id, key, value });
    else found.set(ownerId, [{ id, key, value }]);
  }
  return found;
}

export async function deleteBindings(trx: Trx, owner: TagBindingOwner, keys?: string[]): Promise<void> {
  let query = trx.deleteFrom('tag_bindings').where(ownerColumn(owner), '=', owner.id);
  if (keys) query = query.where('key', 'in', [...keys, '']);
  await query.execute();
}

/** Gives bindings (by id) new values, in one statement. */
export async function updateValues(trx: Trx, changes: { id: string; value: string }[]): Promise<void> {
  const [first, ...others] = changes;
  if (!first) return;
  await trx
    .updateTable('tag_bindings')
    .set((eb) => {
      let value = eb.case().when('id', '=', first.id).then(first.value);
      for (const { id, value: next } of others) value = value.when('id', '=', id).then(next);
      return { value: value.else(eb.ref('value')).end() };
    })
    .where(
      'id',
      'in',
      changes.map((c) => c.id),
    )
    .execute();
}

export async function insertBindings(
  trx: Trx,
  owner: TagBindingOwner,
  rows: { id: string; key: string; value: string; position: number; created_at: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('tag_bindings')
    .values(
      rows.map((row) => ({
        ...row,
        organization_id: owner.organizationId,
        workspace_id: owner.kind === 'workspace' ? owner.id : null,
        project_id: owner.kind === 'project' ? owner.id : null,
      })),
    )
    .execute();
}
