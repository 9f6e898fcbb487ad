import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { NotFound } from '../common/errors.js';
import type { Page } from '../common/page.js';
import { readableVarset } from './access.js';
import { findVarsetOrganizationId } from './store.js';
import type { VarsetVersion } from './versions/model.js';
import { findNewestVersion, findVersion, pageOfDeletedSets, pageOfVersions } from './versions/store.js';
import { getOrganization } from '../organizations/service.js';

/**
 * Reading a set's versions. Whoever may read the set may read its versions; those of a set
 * that was deleted, only the organization's owners (and its organization token and the site
 * administrator): otherwise the 404 of a missing set.
 */

async function ensureHistoryReadable(ctx: Context, varsetId: string): Promise<void> {
  if (await findVarsetOrganizationId(ctx.store.db, varsetId)) {
    await readableVarset(ctx, varsetId, false);
    return;
  }
  const newest = await findNewestVersion(ctx.store.db, varsetId);
  if (!newest) throw new NotFound();
  ensure(ctx.subject, 'varset:read-deleted', { organizationId: newest.organizationId });
}

export async function listVarsetVersions(
  ctx: Context,
  varsetId: string,
  page: Page,
): Promise<{ rows: VarsetVersion[]; total: number }> {
  await ensureHistoryReadable(ctx, varsetId);
  return pageOfVersions(ctx.store.db, varsetId, page);
}

export async function showVarsetVersion(ctx: Context, id: string): Promise<VarsetVersion> {
  const version = await findVersion(ctx.store.db, id);
  if (!version) throw new NotFound();
  await ensureHistoryReadable(ctx, version.varsetId);
  return version;
}

/**
 * An organization's deleted sets, as their deletions (newest first): for those who may read
 * and restore them, the owners, the organization token and the site administrator; the 404 of
 * a missing organization to everyone else.
 */
export async function listDeletedVarsets(
  ctx: Context,
  organizationName: string,
  page: Page,
): Promise<{ rows: VarsetVersion[]; total: number }> {
  const organization = await getOrganization(ctx, organizationName, 'varset:read-deleted');
  return pageOfDeletedSets(ctx.store.db, organization.id, page);
}
