import { sql, type Kysely } from 'kysely';
import type { Scope } from '../auth/policy.js';
import type { Database } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { contains } from '../db/search.js';
import { fetchPage } from '../db/page.js';

import type { Workspace } from './model.js';

export type { Workspace };

export interface WorkspaceFilter {
  search?: string | undefined;
  projectId?: string | undefined;
  /** What the caller may see: every workspace, or those granted and those of the granted projects. */
  visible: Exclude<Scope<{ workspaceIds: string[]; projectIds: string[] }>, 'none'>;
}

export async function listWorkspaces(db: Kysely<Database>, organizationId: string, filter: WorkspaceFilter, page: Page): Promise<{ rows: Workspace[]; total: number }> {
  let base = db.selectFrom('workspaces').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.projectId !== undefined) base = base.where('project_id', '=', filter.projectId);
  const visible = filter.visible;
  if (visible !== 'all') {
    base = base.where((eb) => eb.or([eb('id', 'in', [...visible.workspaceIds, '']), eb('project_id', 'in', [...visible.projectIds, ''])]));
  }
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('name'));
}
