import type { Db, Trx } from '../db/transaction.js';

/** Ids of the workspaces allowed to read this one's remote state. */
export async function consumerIds(db: Db, workspaceId: string): Promise<string[]> {
  return (
    await db
      .selectFrom('remote_state_consumers')
      .select('consumer_id')
      .where('workspace_id', '=', workspaceId)
      .execute()
  ).map((r) => r.consumer_id);
}

export async function addConsumers(trx: Trx, workspaceId: string, ids: string[]): Promise<void> {
  const existing = new Set(await consumerIds(trx, workspaceId));
  const added = [...new Set(ids)].filter((id) => !existing.has(id));
  if (added.length)
    await trx
      .insertInto('remote_state_consumers')
      .values(added.map((consumer_id) => ({ workspace_id: workspaceId, consumer_id })))
      .execute();
}

export async function removeConsumers(trx: Trx, workspaceId: string, ids?: string[]): Promise<void> {
  let query = trx.deleteFrom('remote_state_consumers').where('workspace_id', '=', workspaceId);
  if (ids) query = query.where('consumer_id', 'in', [...ids, '']);
  await query.execute();
}
