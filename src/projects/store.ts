import { sql, type Kysely } from 'kysely';
import type { Scope } from '../auth/policy.js';
import type { Database } from '../db/schema.js';
import type { Page } from '../jsonapi/query.js';
import { contains } from '../db/search.js';
import { fetchPage } from '../db/page.js';

import type { Project } from './model.js';

export type { Project };

export interface ProjectFilter {
  search?: string | undefined;
  names?: string[] | undefined;
  /** What the caller may see: every project, or those listed. */
  visible: Exclude<Scope<{ projectIds: string[] }>, 'none'>;
}

export async function listProjects(db: Kysely<Database>, organizationId: string, filter: ProjectFilter, page: Page): Promise<{ rows: Project[]; total: number }> {
  let base = db.selectFrom('projects').where('organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('search_name'), filter.search));
  if (filter.names !== undefined) base = base.where('name', 'in', filter.names.length ? filter.names : ['']);
  if (filter.visible !== 'all') base = base.where('id', 'in', [...filter.visible.projectIds, '']);
  return fetchPage(db, base, page, (q) => q.selectAll().orderBy('name').orderBy('id'));
}
