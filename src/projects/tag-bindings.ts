import type { Context } from '../auth/context.js';
import { recordAuditEvent } from '../audit/service.js';
import { withOrganizationLocked } from '../db/transaction.js';
import type { EffectiveTagBinding, TagBinding, TagBindingOwner } from '../tag-bindings/model.js';
import { addBindings, listBindings, listBindingsOfMany } from '../tag-bindings/service.js';
import { getProject } from './service.js';

/** A project's key/value tag bindings: read with the project, changed by those who may update it. */

const ownerOf = (project: { id: string; organization_id: string }): TagBindingOwner => ({
  kind: 'project',
  id: project.id,
  organizationId: project.organization_id,
});

export async function listProjectTagBindings(ctx: Context, id: string): Promise<TagBinding[]> {
  const { project } = await getProject(ctx, id);
  return listBindings(ctx.store.db, ownerOf(project));
}

/** A project inherits no bindings: the ones in force on it are its own. */
const inForce = (bindings: TagBinding[]): EffectiveTagBinding[] =>
  bindings.map((binding) => ({ ...binding, inheritedFrom: null }));

export async function listProjectEffectiveTagBindings(ctx: Context, id: string): Promise<EffectiveTagBinding[]> {
  return inForce(await listProjectTagBindings(ctx, id));
}

/** The bindings in force on projects the caller was given (for `include=effective_tag_bindings`): one statement for a page. */
export async function effectiveTagBindingsOfProjects(
  ctx: Context,
  projectIds: string[],
): Promise<Map<string, EffectiveTagBinding[]>> {
  const own = await listBindingsOfMany(ctx.store.db, 'project', projectIds);
  return new Map(projectIds.map((id) => [id, inForce(own.get(id) ?? [])]));
}

export async function addProjectTagBindings(
  ctx: Context,
  id: string,
  bindings: { key: string; value: string }[],
): Promise<TagBinding[]> {
  const { project } = await getProject(ctx, id, 'project:update');
  return withOrganizationLocked(ctx.store, project.organization_id, async (trx) => {
    const result = await addBindings(trx, ownerOf(project), bindings);
    recordAuditEvent(trx, ctx, {
      organizationId: project.organization_id,
      type: 'project',
      id: project.id,
      action: 'add_tag_bindings',
      meta: { keys: bindings.map((b) => b.key).join(',') },
    });
    return result;
  });
}
