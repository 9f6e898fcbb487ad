import { sql } from 'kysely';
import { containsPattern } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';

const TAG_COLUMNS = ['id', 'name'] as const;

/** Tag names are matched as written, ignoring case. */
const nameContains = (search: string) =>
  sql<boolean>`lower(tags.name) like lower(${containsPattern(search)}) escape '\\'`;

/** The tags of an organization by name, those that exist. */
export async function tagsByName(
  db: Db,
  organizationId: string,
  names: string[],
): Promise<{ id: string; name: string }[]> {
  if (names.length === 0) return [];
  return db
    .selectFrom('tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('name', 'in', names)
    .execute();
}

/** The tags of an organization by id, those that exist. */
export async function tagsById(db: Db, organizationId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('tags')
    .select(TAG_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
}

export async function insertTags(
  trx: Trx,
  organizationId: string,
  tags: { id: string; name: string; created_at: string }[],
): Promise<void> {
  if (tags.length === 0) return;
  await trx
    .insertInto('tags')
    .values(tags.map((t) => ({ ...t, organization_id: organizationId })))
    .execute();
}

/** Tags the workspace, leaving the tags it already has as they are. */
export async function attachTags(trx: Trx, workspaceId: string, tagIds: string[]): Promise<void> {
  if (tagIds.length === 0) return;
  const existing = new Set(
    (await trx.selectFrom('workspace_tags').select('tag_id').where('workspace_id', '=', workspaceId).execute()).map(
      (r) => r.tag_id,
    ),
  );
  const added = [...new Set(tagIds)].filter((id) => !existing.has(id));
  if (added.length)
    await trx
      .insertInto('workspace_tags')
      .values(added.map((tag_id) => ({ workspace_id: workspaceId, tag_id })))
      .execute();
}

export async function detachTags(trx: Trx, workspaceId: string, tagIds: string[]): Promise<void> {
  if (tagIds.length === 0) return;
  await trx
    .deleteFrom('workspace_tags')
    .where('workspace_id', '=', workspaceId)
    .where('tag_id', 'in', tagIds)
    .execute();
}

/** A workspace's tags, by name. */
export async function tagsOfWorkspace(
  db: Db,
  workspaceId: string,
  search: string | undefined,
  page: { number: number; size: number },
): Promise<{ rows: { id: string; name: string }[]; total: number }> {
  let base = db
    .selectFrom('workspace_tags')
    .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
    .where('workspace_tags.workspace_id', '=', workspaceId);
  if (search !== undefined) base = base.where(nameContains(search));
  const [rows, count] = await Promise.all([
    base
      .select(['tags.id', 'tags.name'])
      .orderBy('tags.name')
      .limit(page.size)
      .offset((page.number - 1) * page.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** An organization's tags with how many workspaces carry each. */
export async function tagsOfOrganization(
  db: Db,
  organizationId: string,
  search: string | undefined,
  page: { number: number; size: number },
): Promise<{ rows: { id: string; name: string; created_at: string; instance_count: number }[]; total: number }> {
  let base = db.selectFrom('tags').where('tags.organization_id', '=', organizationId);
  if (search !== undefined) base = base.where(nameContains(search));
  const [rows, count] = await Promise.all([
    base
      .select(['tags.id', 'tags.name', 'tags.created_at'])
      .select((eb) =>
        eb
          .selectFrom('workspace_tags')
          .select((c) => c.fn.countAll<number>().as('n'))
          .whereRef('workspace_tags.tag_id', '=', 'tags.id')
          .as('instance_count'),
      )
      .orderBy('tags.name')
      .limit(page.size)
      .offset((page.number - 1) * page.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, instance_count: Number(r.instance_count ?? 0) })), total: Number(count.n) };
}
