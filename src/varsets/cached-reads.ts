import type { Context } from '../context.js';
import { varsetListScope } from '../auth/list-scopes.js';
import { varsetPermissionsKey } from '../auth/permissions.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
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
 * Reads of a set and of lists of sets, answered through the response cache (src/cache): the
 * organization's version is read before, or in the same statement as, anything the response
 * holds, and the caller's permission is decided on every request before anything is served.
 */

/** How a read's response is kept: under the request's path and query, as the route's response serializer renders it. */
export interface CachedResponse {
  key: string;
  serialize: (document: unknown) => string;
}

/** What a cached read decided before rendering: the organization's version and what the caller may see. */
interface Versioned<T> {
  version: number | undefined;
  authorized: T;
}

/**
 * A read answered through the response cache. `authorize` reads the organization's version
 * and decides (and may refuse) for this caller before anything is served; it is told the
 * version of the body this process keeps for the request, if any. A response that `sharedBy`
 * says is not the same for every caller allowed to read it is rendered for each request.
 */
async function cachedRead<T>(
  ctx: Context,
  response: CachedResponse,
  authorize: (versionHeld: number | undefined) => Promise<Versioned<T>>,
  render: (authorized: T) => Promise<unknown>,
  sharedBy: (authorized: T) => boolean = () => true,
): Promise<string> {
  // Callers whose permissions on sets differ never share a body: each body shows them.
  const key = `${response.key}\n${varsetPermissionsKey(ctx.subject)}`;
  const { version, authorized } = await authorize(ctx.responses.versionHeld(key));
  return ctx.responses.through(key, sharedBy(authorized) ? version : undefined, () => render(authorized), response.serialize);
}

/** The rendered response of a set: `render` turns its view into the document. */
export async function showVarset(ctx: Context, response: CachedResponse, id: string, include: Set<VarsetInclude>, render: (view: VarsetView) => unknown): Promise<string> {
  const shared = includesAlike(include);
  // The relationships are left unread when the body kept for this request is at the set's version: it is served as it is.
  const read = (versionHeld?: number) => readableVarset(ctx, id, include.has('vars'), shared ? versionHeld : undefined);
  return cachedRead(
    ctx,
    response,
    async (versionHeld) => {
      const found = await read(versionHeld);
      return { version: found.version, authorized: found };
    },
    async (found) => {
      // Another request replaced or evicted the kept body meanwhile: the relationships are needed after all.
      const { varset, relations } = found.relations ? found : await read();
      return render(readableBy(ctx.subject, await completeViews(ctx.store.db, [{ varset, relations: relations! }], include))[0]!);
    },
    () => shared,
  );
}

export interface VarsetListRequest {
  search: string | undefined;
  page: Page;
  include: Set<VarsetInclude>;
}

async function listVarsetViews(ctx: Context, scope: VarsetScope, request: VarsetListRequest): Promise<VarsetList> {
  const { rows, total } = await listVarsets(ctx.store.db, scope, request.search, request.page, request.include.has('vars'));
  return { views: readableBy(ctx.subject, await completeViews(ctx.store.db, rows, request.include)), total };
}

/**
 * An organization's list is the same for every caller with organization-wide access; for
 * others it depends on what they may read, and is rendered for each request.
 */
export async function listOrganizationVarsets(
  ctx: Context,
  response: CachedResponse,
  organizationName: string,
  request: VarsetListRequest,
  render: (list: VarsetList, organization: Organization) => unknown,
): Promise<string> {
  const authorize = async () => {
    const { organization, version } = await getVersionedOrganization(ctx, organizationName);
    // A member without organization-wide Read variables lists the sets it may read.
    const readable = varsetListScope(ctx.subject, organization.id);
    if (readable === 'none') throw new NotFound();
    return { version, authorized: { organization, readable } };
  };
  return cachedRead(
    ctx,
    response,
    authorize,
    async ({ organization, readable }) => render(await listVarsetViews(ctx, { kind: 'organization', organizationId: organization.id, readable }, request), organization),
    ({ readable }) => readable === 'all' && includesAlike(request.include),
  );
}

export async function listProjectVarsets(
  ctx: Context,
  response: CachedResponse,
  projectId: string,
  request: VarsetListRequest,
  render: (list: VarsetList) => unknown,
): Promise<string> {
  return cachedRead(
    ctx,
    response,
    async () => {
      const { project, organizationVersion } = await getProject(ctx, projectId, 'project:read-variables');
      return { version: organizationVersion, authorized: project };
    },
    async (project) => render(await listVarsetViews(ctx, { kind: 'project', organizationId: project.organization_id, projectId: project.id }, request)),
    () => includesAlike(request.include),
  );
}

export async function listWorkspaceVarsets(
  ctx: Context,
  response: CachedResponse,
  workspaceId: string,
  request: VarsetListRequest,
  render: (list: VarsetList) => unknown,
): Promise<string> {
  return cachedRead(
    ctx,
    response,
    async () => {
      const { workspace, organizationVersion } = await getWorkspace(ctx, { id: workspaceId }, 'workspace:read-variables');
      return { version: organizationVersion, authorized: workspace };
    },
    async (workspace) => render(await listVarsetViews(ctx, { kind: 'workspace', ...locationOfWorkspace(workspace) }, request)),
    () => includesAlike(request.include),
  );
}
