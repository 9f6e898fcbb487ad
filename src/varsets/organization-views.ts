import type { Context } from '../auth/context.js';
import { varsetListScope } from '../auth/list-scopes.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { getOrganization } from '../organizations/service.js';
import { listVarsets } from './list-store.js';
import type { VarsetList } from './model.js';
import { completeViews, readableBy } from './views.js';

const EVERYTHING = new Set(['vars', 'workspaces', 'projects'] as const);

/**
 * A page of an organization's sets the caller may read, each whole (variables' rows, the
 * workspaces and projects it is assigned to), outside the response cache: for the command
 * line's export and import, which read every set once.
 */
export async function pageOfOrganizationVarsets(
  ctx: Context,
  organizationName: string,
  page: Page,
): Promise<VarsetList> {
  const organization = await getOrganization(ctx, organizationName);
  const readable = varsetListScope(ctx.subject, organization.id);
  if (readable === 'none') throw new NotFound();
  const { rows, total } = await listVarsets(
    ctx.store.db,
    { kind: 'organization', organizationId: organization.id, readable },
    undefined,
    page,
    true,
  );
  return { views: readableBy(ctx.subject, await completeViews(ctx.store.db, rows, EVERYTHING)), total };
}
