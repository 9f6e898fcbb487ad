import type { Context } from '../auth/context.js';
import { varsetListScope } from '../auth/list-scopes.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
import type { VersionedRead } from '../common/versioned-read.js';
import type { Organization } from '../organizations/model.js';
import { getVersionedOrganization } from '../organizations/service.js';
import { getProject } from '../projects/service.js';
import { getWorkspace } from '../workspaces/service.js';
import { readableVarset } from './access.js';
import { listVarsets } from './list-store.js';
import type { VarsetInclude, VarsetList, VarsetScope, VarsetView } from './model.js';
import { completeViews, includesAlike, readableBy } from './views.js';
import { locationOfWorkspace } from '../common/location.js';

/**
 * Reads of a set and of lists of sets, at their organization's version (which the response
 * cache keeps their bodies under, src/cache): the version is read before, or in the same
 * statement as, anything the response holds, and the caller's permission is decided before
 * the read is returned. What the response shows is read only when asked for.
 */

/**
 * A set the caller may read, at its organization's version. At `versionHeld` (the version of a
 * body kept for this request) its relationships are left unread: the body is served as it is.
 */
export async function showVarset(
  ctx: Context,
  id: string,
  include: Set<VarsetInclude>,
  versionHeld?: number,
): Promise<VersionedRead<VarsetView>> {
  const shared = includesAlike(include);
  const read = (unlessAtVersion?: number) => readableVarset(ctx, id, include.has('vars'), unlessAtVersion);
  const found = await read(shared ? versionHeld : undefined);
  return {
    version: shared ? found.version : undefined,
    read: async () => {
      // Another request replaced or evicted the kept body meanwhile: the relationships are needed after all.
      const { varset, relations } = found.relations ? found : await read();
      return readableBy(
        ctx.subject,
        await completeViews(ctx.store.db, [{ varset, relations: relations! }], include),
      )[0]!;
    },
  };
}

export interface VarsetListRequest {
  search: string | undefined;
  page: Page;
  include: Set<VarsetInclude>;
}

async function listVarsetViews(ctx: Context, scope: VarsetScope, request: VarsetListRequest): Promise<VarsetList> {
  const { rows, total } = await listVarsets(
    ctx.store.db,
    scope,
    request.search,
    request.page,
    request.include.has('vars'),
  );
  return { views: readableBy(ctx.subject, await completeViews(ctx.store.db, rows, request.include)), total };
}

/**
 * An organization's sets, with the organization. The list is the same for every caller with
 * organization-wide access; for others it depends on what they may read, and is not kept.
 */
export async function listOrganizationVarsets(
  ctx: Context,
  organizationName: string,
  request: VarsetListRequest,
): Promise<VersionedRead<{ list: VarsetList; organization: Organization }>> {
  const { organization, version } = await getVersionedOrganization(ctx, organizationName);
  // A member without organization-wide Read variables lists the sets it may read.
  const readable = varsetListScope(ctx.subject, organization.id);
  if (readable === 'none') throw new NotFound();
  return {
    version: readable === 'all' && includesAlike(request.include) ? version : undefined,
    read: async () => ({
      list: await listVarsetViews(ctx, { kind: 'organization', organizationId: organization.id, readable }, request),
      organization,
    }),
  };
}

export async function listProjectVarsets(
  ctx: Context,
  projectId: string,
  request: VarsetListRequest,
): Promise<VersionedRead<VarsetList>> {
  const { project, organizationVersion } = await getProject(ctx, projectId, 'project:read-variables');
  return {
    version: includesAlike(request.include) ? organizationVersion : undefined,
    read: () =>
      listVarsetViews(
        ctx,
        { kind: 'project', organizationId: project.organization_id, projectId: project.id },
        request,
      ),
  };
}

export async function listWorkspaceVarsets(
  ctx: Context,
  workspaceId: string,
  request: VarsetListRequest,
): Promise<VersionedRead<VarsetList>> {
  const { workspace, organizationVersion } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
  return {
    version: includesAlike(request.include) ? organizationVersion : undefined,
    read: () => listVarsetViews(ctx, { kind: 'workspace', ...locationOfWorkspace(workspace) }, request),
  };
}
