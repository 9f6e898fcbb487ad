import type { Context } from '../auth/context.js';
import type { ItemReport } from './plan.js';
import type { SourceOrganization } from './source.js';
import type { TargetOrganization } from './target.js';
import { attempt, importWorkspaceTags } from './writes.js';

export type TagReport = ItemReport & { workspace: string; tag: string };

/**
 * The source's workspace tags (go-tfe's `tag-names`) on the target's workspaces of the same
 * name: those a workspace lacks are added in one write, its others kept, none removed; a
 * workspace not in the target (--no-create) has its tags skipped. Returns the report of each.
 */
export async function importTags(
  ctx: Context,
  workspaces: SourceOrganization['workspaces'],
  target: Pick<TargetOrganization, 'workspaceIds' | 'workspaceTags'>,
  dryRun: boolean,
): Promise<TagReport[]> {
  const tagReports: TagReport[] = [];
  for (const { name, tags } of workspaces) {
    if (tags.length === 0) continue;
    const id = target.workspaceIds.get(name);
    const held = new Set(id === undefined ? [] : (target.workspaceTags.get(id) ?? []));
    const items = tags.map((tag) => ({ workspace: name, tag }));
    if (id === undefined) {
      const why = 'the workspace is not in the target organization (--no-create)';
      tagReports.push(...items.map((item) => ({ ...item, result: 'skipped' as const, why })));
      continue;
    }
    // The missing tags in one write; should it be refused (a name the target refuses), each alone.
    const missing = tags.filter((tag) => !held.has(tag));
    const refused = new Map<string, string>();
    if (!dryRun && missing.length > 0 && (await attempt(() => importWorkspaceTags(ctx, id, missing))) !== undefined)
      for (const tag of missing) {
        const why = await attempt(() => importWorkspaceTags(ctx, id, [tag]));
        if (why !== undefined) refused.set(tag, why);
      }
    for (const item of items) {
      const why = refused.get(item.tag);
      if (held.has(item.tag)) tagReports.push({ ...item, result: 'unchanged' });
      else if (why !== undefined) tagReports.push({ ...item, result: 'skipped', why });
      else tagReports.push({ ...item, result: 'created' });
    }
  }
  return tagReports;
}
