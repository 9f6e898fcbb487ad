import type { Db, Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { Invalid } from '../common/errors.js';
import {
  MAX_TAG_BINDINGS,
  effectiveBindings,
  type EffectiveTagBinding,
  type TagBinding,
  type TagBindingOwner,
} from './model.js';
import * as store from './store.js';

/**
 * Tag bindings of workspaces and projects. The workspace and project features decide who may
 * read or change them and call these inside their own transactions.
 */

export function listBindings(db: Db, owner: TagBindingOwner): Promise<TagBinding[]> {
  return store.bindingsOf(db, owner);
}

/** The bindings of many workspaces or projects, for a page of them. */
export function listBindingsOfMany(
  db: Db,
  kind: TagBindingOwner['kind'],
  ids: string[],
): Promise<Map<string, TagBinding[]>> {
  return store.bindingsOfMany(db, kind, ids);
}

/** The bindings in force on workspaces: their own and their projects', two statements for a page. */
export async function effectiveBindingsOf(
  db: Db,
  workspaces: { id: string; project_id: string }[],
): Promise<Map<string, EffectiveTagBinding[]>> {
  const [own, inherited] = await Promise.all([
    store.bindingsOfMany(
      db,
      'workspace',
      workspaces.map((w) => w.id),
    ),
    store.bindingsOfMany(db, 'project', [...new Set(workspaces.map((w) => w.project_id))]),
  ]);
  return new Map(
    workspaces.map((w) => [
      w.id,
      effectiveBindings(own.get(w.id) ?? [], w.project_id, inherited.get(w.project_id) ?? []),
    ]),
  );
}

/** Replaces the owner's bindings with `bindings` (an empty list removes them all). */
export async function replaceBindings(
  trx: Trx,
  owner: TagBindingOwner,
  bindings: { key: string; value: string }[],
): Promise<TagBinding[]> {
  if (bindings.length > MAX_TAG_BINDINGS)
    throw new Invalid('tag-bindings', `cannot exceed ${MAX_TAG_BINDINGS} bindings per resource`);
  await store.deleteBindings(trx, owner);
  const timestamp = now();
  const rows = bindings.map((b, position) => ({
    id: newId('tb'),
    key: b.key,
    value: b.value,
    position,
    created_at: timestamp,
  }));
  await store.insertBindings(trx, owner, rows);
  return rows.map(({ id, key, value }) => ({ id, key, value }));
}

/** Adds bindings, or changes the value of those whose key exists; answers the bindings given, as they now are. */
export async function addBindings(
  trx: Trx,
  owner: TagBindingOwner,
  bindings: { key: string; value: string }[],
): Promise<TagBinding[]> {
  const existing = await store.bindingsOf(trx, owner);
  const byKey = new Map(existing.map((b) => [b.key, b]));
  const added = bindings.filter((b) => !byKey.has(b.key));
  if (existing.length + added.length > MAX_TAG_BINDINGS)
    throw new Invalid('tag-bindings', `cannot exceed ${MAX_TAG_BINDINGS} bindings per resource`);
  const timestamp = now();
  const inserted = added.map((b, i) => ({
    id: newId('tb'),
    key: b.key,
    value: b.value,
    position: existing.length + i,
    created_at: timestamp,
  }));
  await store.insertBindings(trx, owner, inserted);
  const changed = bindings.flatMap((b) => {
    const old = byKey.get(b.key);
    return old && old.value !== b.value ? [{ id: old.id, value: b.value }] : [];
  });
  await store.updateValues(trx, changed);
  const insertedByKey = new Map(inserted.map((b) => [b.key, b]));
  return bindings.map((b) => ({ id: (byKey.get(b.key) ?? insertedByKey.get(b.key)!).id, key: b.key, value: b.value }));
}
