import type { Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { Invalid } from '../common/errors.js';
import type { Workspace } from './model.js';
import * as tagStore from './tag-store.js';

/** HCP Terraform's tag names: lower-case letters, digits, `:`, `_` and `-`, starting with a letter or digit, at most 255. */
const TAG_NAME = /^[a-z0-9][a-z0-9:_-]{0,254}$/;

/**
 * Tags a workspace with tags named (created in its organization when new) and tags given by id
 * (an id the organization does not have is a 422).
 */
export async function tagWorkspace(
  trx: Trx,
  workspace: Workspace,
  tags: { names: string[]; ids: string[] },
): Promise<void> {
  tags.names.forEach((name, index) => {
    if (!TAG_NAME.test(name))
      throw new Invalid(
        `tags[${index}].name`,
        'a tag name is lower-case letters, digits, ":", "_" and "-", at most 255, starting with a letter or a digit',
      );
  });
  const ids = await tagIds(trx, workspace.organization_id, tags);
  await tagStore.attachTags(trx, workspace.id, ids);
}

/** The ids of the tags named or given, creating those named that do not exist yet. */
async function tagIds(trx: Trx, organizationId: string, tags: { names: string[]; ids: string[] }): Promise<string[]> {
  const names = [...new Set(tags.names)];
  const existing = await tagStore.tagsByName(trx, organizationId, names);
  const known = new Set(existing.map((t) => t.name));
  const timestamp = now();
  const created = names
    .filter((name) => !known.has(name))
    .map((name) => ({ id: newId('tag'), name, created_at: timestamp }));
  await tagStore.insertTags(trx, organizationId, created);
  const byId = await tagStore.tagsById(trx, organizationId, tags.ids);
  if (byId.length !== new Set(tags.ids).size) throw new Invalid('', 'a tag id names no tag of this organization');
  return [...existing, ...created, ...byId].map((t) => t.id);
}

/** Removes the tags named or given from the workspace; tags it does not have are ignored. */
export async function untagWorkspace(
  trx: Trx,
  workspace: Workspace,
  tags: { names: string[]; ids: string[] },
): Promise<void> {
  const named = await tagStore.tagsByName(trx, workspace.organization_id, tags.names);
  await tagStore.detachTags(trx, workspace.id, [...named.map((t) => t.id), ...tags.ids]);
}
