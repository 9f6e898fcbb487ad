import type { Context } from '../auth/context.js';
import { varsetListScope } from '../auth/list-scopes.js';
import { NotFound } from '../common/errors.js';
import type { Organization } from '../organizations/model.js';
import { getVersionedOrganization } from '../organizations/service.js';
import { listArrangedVarsets } from './arranged-list-store.js';
import type { VarsetArrangement, VarsetList } from './model.js';
import type { VarsetListRequest } from './versioned-reads.js';
import { completeViews, readableBy } from './views.js';

/**
 * An organization's sets filtered by their flags or sorted by another key than the name (the
 * table view's questions). Rendered for each request: the response cache keeps the plain lists.
 * Who may list them is decided as for the plain list.
 */
export async function listArrangedOrganizationVarsets(
  ctx: Context,
  organizationName: string,
  request: VarsetListRequest,
  arrangement: VarsetArrangement,
): Promise<{ list: VarsetList; organization: Organization }> {
  const { organization } = await getVersionedOrganization(ctx, organizationName);
  const readable = varsetListScope(ctx.subject, organization.id);
  if (readable === 'none') throw new NotFound();
  const scope = { kind: 'organization', organizationId: organization.id, readable } as const;
  const { rows, total } = await listArrangedVarsets(
    ctx.store.db,
    scope,
    request.search,
    arrangement,
    request.page,
    request.include.has('vars'),
  );
  return {
    list: { views: readableBy(ctx.subject, await completeViews(ctx.store.db, rows, request.include)), total },
    organization,
  };
}
