import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Scope } from '../auth/list-scopes.js';
import { compiledOnce } from '../db/compiled-once.js';
import { byCodePoint } from '../db/order.js';
import { fetchPage } from '../db/page.js';
import type { Database, WorkspaceTable } from '../db/schema.js';
import { contains, searchable } from '../db/search.js';
import type { Db, Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import { ORGANIZATION_COLUMNS, splitOrganization, type Organization } from '../organizations/model.js';
import {
  WORKSPACE_COLUMNS,
  type LockHolder,
  type Workspace,
  type WorkspaceExtras,
  type WorkspaceLocator,
  type WorkspaceSort,
} from './model.js';

const COLUMNS = [
  ...WORKSPACE_COLUMNS,
  'workspaces.allow_destroy_plan',
  'workspaces.auto_apply',
  'workspaces.auto_apply_run_trigger',
  'workspaces.assessments_enabled',
  'workspaces.file_triggers_enabled',
  'workspaces.global_remote_state',
  'workspaces.project_remote_state',
  'workspaces.queue_all_runs',
  'workspaces.speculative_enabled',
  'workspaces.structured_run_output_enabled',
  'workspaces.inherits_project_auto_destroy',
  'workspaces.hyok_enabled',
  'workspaces.auto_destroy_at',
  'workspaces.auto_destroy_activity_duration',
  'workspaces.source_name',
  'workspaces.source_url',
  'workspaces.terraform_version',
  'workspaces.trigger_prefixes',
  'workspaces.trigger_patterns',
  'workspaces.working_directory',
  'workspaces.execution_mode',
  'workspaces.locked_by_type',
  'workspaces.locked_by_id',
  'workspaces.lock_reason',
] as const;

type Row = Omit<Selectable<WorkspaceTable>, 'search_name'> & {
  current_configuration_version_id: string | null;
  current_run_id: string | null;
  runs_count: number | string | bigint | null;
  run_failures: number | string | bigint | null;
};

/**
 * Beside the row: the newest configuration version that is not provisional (a provisional one
 * never becomes current), the newest run, and how many runs it has had and how many errored.
 */
const current = (eb: ExpressionBuilder<Database, 'workspaces'>) => [
  eb
    .selectFrom('configuration_versions as cv')
    .select('cv.id')
    .whereRef('cv.workspace_id', '=', 'workspaces.id')
    .where('cv.provisional', '=', false)
    .orderBy('cv.seq', 'desc')
    .limit(1)
    .as('current_configuration_version_id'),
  eb
    .selectFrom('runs as run')
    .select('run.id')
    .whereRef('run.workspace_id', '=', 'workspaces.id')
    .orderBy('run.seq', 'desc')
    .limit(1)
    .as('current_run_id'),
  eb
    .selectFrom('runs as counted')
    .select((c) => c.fn.countAll<number>().as('n'))
    .whereRef('counted.workspace_id', '=', 'workspaces.id')
    .as('runs_count'),
  eb
    .selectFrom('runs as failed')
    .select((c) => c.fn.countAll<number>().as('n'))
    .whereRef('failed.workspace_id', '=', 'workspaces.id')
    .where('failed.status', '=', 'errored')
    .as('run_failures'),
];

function fromRow(row: Row): Workspace {
  const { trigger_prefixes, trigger_patterns, locked_by_type, locked_by_id, runs_count, run_failures, ...rest } = row;
  return {
    ...rest,
    // PostgreSQL answers a count as a bigint, in text.
    runs_count: Number(runs_count ?? 0),
    run_failures: Number(run_failures ?? 0),
    trigger_prefixes: JSON.parse(trigger_prefixes) as string[],
    trigger_patterns: JSON.parse(trigger_patterns) as string[],
    locked_by: locked_by_type && locked_by_id ? { type: locked_by_type, id: locked_by_id } : null,
  };
}

function toRow(workspace: Workspace): Omit<Selectable<WorkspaceTable>, 'id' | 'organization_id' | 'created_at'> {
  const {
    locked_by,
    trigger_prefixes,
    trigger_patterns,
    id: _id,
    organization_id: _o,
    created_at: _c,
    current_configuration_version_id: _v,
    current_run_id: _r,
    runs_count: _n,
    run_failures: _f,
    ...rest
  } = workspace;
  return {
    ...rest,
    search_name: searchable(workspace.name),
    trigger_prefixes: JSON.stringify(trigger_prefixes),
    trigger_patterns: JSON.stringify(trigger_patterns),
    locked_by_type: locked_by?.type ?? null,
    locked_by_id: locked_by?.id ?? null,
  };
}

const withOrganization = (db: Db) =>
  db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .innerJoin('organization_versions', 'organization_versions.organization_id', 'workspaces.organization_id')
    .select(COLUMNS)
    .select(current)
    .select(ORGANIZATION_COLUMNS)
    .innerJoin('credentials_version', (join) => join.onTrue())
    .select([
      'organization_versions.version as organization_version',
      'credentials_version.version as credentials_version',
    ]);
const workspaceById = compiledOnce((db, id: string) => withOrganization(db).where('workspaces.id', '=', id));
const workspaceByName = compiledOnce((db, organizationName: string, name: string) =>
  withOrganization(db).where('organizations.name', '=', organizationName).where('workspaces.name', '=', name),
);

/**
 * A workspace with its organization, the organization's version (migration 0007, which the
 * response cache reads) and the credentials version (migration 0015, which confirms a kept
 * subject: `confirmCredentials`), in one statement.
 */
export async function findWorkspaceWithOrganization(
  db: Db,
  where: WorkspaceLocator,
): Promise<
  | { workspace: Workspace; organization: Organization; organizationVersion: number; credentialsVersion: number }
  | undefined
> {
  const [row] = await ('id' in where
    ? workspaceById(db, where.id)
    : workspaceByName(db, where.organizationName, where.name));
  if (!row) return undefined;
  const { row: workspace, organization } = splitOrganization(row);
  const { organization_version, credentials_version, ...columns } = workspace;
  return {
    workspace: fromRow(columns),
    organization,
    organizationVersion: Number(organization_version),
    credentialsVersion: Number(credentials_version),
  };
}

/** Workspaces by id with their organization, ordered by id, those that exist. */
export async function findWorkspacesWithOrganization(
  db: Db,
  ids: string[],
): Promise<{ workspace: Workspace; organization: Organization }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(COLUMNS)
    .select(current)
    .select(ORGANIZATION_COLUMNS)
    .where('workspaces.id', 'in', ids)
    .orderBy('workspaces.id')
    .execute();
  return rows.map((row) => {
    const { row: workspace, organization } = splitOrganization(row);
    return { workspace: fromRow(workspace), organization };
  });
}

/** Workspaces of an organization by id, those that exist. */
export async function findWorkspaces(db: Db, organizationId: string, ids: string[]): Promise<Workspace[]> {
  if (ids.length === 0) return [];
  return (
    await db
      .selectFrom('workspaces')
      .select(COLUMNS)
      .select(current)
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .execute()
  ).map(fromRow);
}

export async function workspaceNameTaken(db: Db, organizationId: string, name: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('workspaces')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()) !== undefined
  );
}

/** Whether the organization has this project. */
export async function organizationHasProject(db: Db, organizationId: string, projectId: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', projectId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()) !== undefined
  );
}

/** The organization's default project; undefined once the organization is gone. */
export async function defaultProjectId(db: Db, organizationId: string): Promise<string | undefined> {
  return (
    await db
      .selectFrom('projects')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('is_default', '=', true)
      .executeTakeFirst()
  )?.id;
}

export interface WorkspaceFilter {
  search?: string | undefined;
  /** A LIKE pattern on the folded name (`*` of `search[wildcard-name]` turned into `%`). */
  wildcard?: string | undefined;
  projectId?: string | undefined;
  /** Tag names a workspace must all have, and tag names it must have none of. */
  tags?: string[] | undefined;
  excludeTags?: string[] | undefined;
  /** Key/value bindings (value '' for any value) it must all have, its own or its project's. */
  tagged?: { key: string; value: string }[] | undefined;
  sort: WorkspaceSort;
  /** What the caller may see: every workspace, or those granted and those of the granted projects. */
  visible: Exclude<Scope<{ workspaceIds: string[]; projectIds: string[] }>, 'none'>;
}

const SORT_COLUMNS = { name: 'name', 'created-at': 'created_at', 'updated-at': 'updated_at' } as const;

export async function listWorkspaces(
  db: Db,
  organizationId: string,
  filter: WorkspaceFilter,
  page: Page,
): Promise<{ rows: Workspace[]; total: number }> {
  let base = db.selectFrom('workspaces').where('workspaces.organization_id', '=', organizationId);
  if (filter.search !== undefined) base = base.where(contains(sql.ref('workspaces.search_name'), filter.search));
  if (filter.wildcard !== undefined)
    base = base.where(sql<boolean>`${sql.ref('workspaces.search_name')} like ${filter.wildcard} escape '\\'`);
  if (filter.projectId !== undefined) base = base.where('workspaces.project_id', '=', filter.projectId);
  for (const name of filter.tags ?? []) {
    base = base.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('workspace_tags')
          .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
          .select('workspace_tags.tag_id')
          .whereRef('workspace_tags.workspace_id', '=', 'workspaces.id')
          .where('tags.name', '=', name),
      ),
    );
  }
  if (filter.excludeTags?.length) {
    const names = filter.excludeTags;
    base = base.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('workspace_tags')
            .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
            .select('workspace_tags.tag_id')
            .whereRef('workspace_tags.workspace_id', '=', 'workspaces.id')
            .where('tags.name', 'in', names),
        ),
      ),
    );
  }
  for (const { key, value } of filter.tagged ?? []) {
    base = base.where(({ exists, selectFrom, or }) => {
      let bound = selectFrom('tag_bindings')
        .select('tag_bindings.id')
        .where((b) =>
          or([
            b('tag_bindings.workspace_id', '=', b.ref('workspaces.id')),
            b('tag_bindings.project_id', '=', b.ref('workspaces.project_id')),
          ]),
        )
        .where('tag_bindings.key', '=', key);
      if (value !== '') bound = bound.where('tag_bindings.value', '=', value);
      return exists(bound);
    });
  }
  const visible = filter.visible;
  if (visible !== 'all') {
    base = base.where((eb) =>
      eb.or([
        eb('workspaces.id', 'in', [...visible.workspaceIds, '']),
        eb('workspaces.project_id', 'in', [...visible.projectIds, '']),
      ]),
    );
  }
  const descending = filter.sort.startsWith('-');
  const column = SORT_COLUMNS[(descending ? filter.sort.slice(1) : filter.sort) as keyof typeof SORT_COLUMNS];
  // Names in code point order on both stores; ties (same time) by id.
  const order = column === 'name' ? byCodePoint(db, 'workspaces.name') : sql.ref(`workspaces.${column}`);
  const direction = descending ? 'desc' : 'asc';
  const { rows, total } = await fetchPage(db, base, page, (q) =>
    q.select(COLUMNS).select(current).orderBy(order, direction).orderBy('workspaces.id', direction),
  );
  return { rows: rows.map(fromRow), total };
}

/**
 * What the responses of these workspaces carry beyond their rows: tag names and variable ids.
 * Two statements, whatever the number of workspaces.
 */
export async function extrasOf(db: Db, ids: string[]): Promise<Map<string, WorkspaceExtras>> {
  const extras = new Map<string, WorkspaceExtras>(ids.map((id) => [id, { tagNames: [], variableIds: [] }]));
  if (ids.length === 0) return extras;
  const [tags, variables] = await Promise.all([
    db
      .selectFrom('workspace_tags')
      .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
      .select(['workspace_tags.workspace_id', 'tags.name'])
      .where('workspace_tags.workspace_id', 'in', ids)
      .orderBy('tags.name')
      .execute(),
    db
      .selectFrom('workspace_variables')
      .select(['workspace_id', 'id'])
      .where('workspace_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  for (const { workspace_id, name } of tags) extras.get(workspace_id)!.tagNames.push(name);
  for (const { workspace_id, id } of variables) extras.get(workspace_id)!.variableIds.push(id);
  return extras;
}

export async function insertWorkspace(trx: Trx, workspace: Workspace): Promise<void> {
  await trx
    .insertInto('workspaces')
    .values({
      ...toRow(workspace),
      id: workspace.id,
      organization_id: workspace.organization_id,
      created_at: workspace.created_at,
    })
    .execute();
}

export async function updateWorkspace(trx: Trx, workspace: Workspace): Promise<void> {
  await trx.updateTable('workspaces').set(toRow(workspace)).where('id', '=', workspace.id).execute();
}

/**
 * Takes or releases the lock in one statement that checks the state it expects, so that of two
 * concurrent requests only one succeeds; answers whether it did.
 */
export async function setLock(
  db: Db,
  id: string,
  expected: LockHolder | null | 'locked',
  holder: LockHolder | null,
  reason: string | null,
  timestamp: string,
): Promise<boolean> {
  let query = db
    .updateTable('workspaces')
    .set({
      locked_by_type: holder?.type ?? null,
      locked_by_id: holder?.id ?? null,
      lock_reason: reason,
      updated_at: timestamp,
    })
    .where('id', '=', id);
  if (expected === null) query = query.where('locked_by_id', 'is', null);
  else if (expected === 'locked') query = query.where('locked_by_id', 'is not', null);
  else query = query.where('locked_by_type', '=', expected.type).where('locked_by_id', '=', expected.id);
  const { numUpdatedRows } = await query.executeTakeFirstOrThrow();
  return Number(numUpdatedRows) === 1;
}

/** Removes the workspace from the sets owned by a project other than its own: such a set reaches only its project's workspaces. */
export async function leaveOtherProjectsSets(trx: Trx, workspace: Workspace): Promise<void> {
  await trx
    .deleteFrom('varset_workspaces')
    .where('workspace_id', '=', workspace.id)
    .where('varset_id', 'in', (eb) =>
      eb
        .selectFrom('varsets')
        .select('id')
        .where('project_id', 'is not', null)
        .where('project_id', '<>', workspace.project_id),
    )
    .execute();
}

/** Deletes a workspace and everything that belongs to it (foreign key cascades). */
/** Deletes every workspace of an organization, before the organization (its projects, which they reference, go with it). */
export async function deleteOrganizationWorkspaces(trx: Trx, organizationId: string): Promise<void> {
  await trx.deleteFrom('workspaces').where('organization_id', '=', organizationId).execute();
}

export async function deleteWorkspace(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('workspaces').where('id', '=', id).execute();
}

/** Deletes the workspace unless it is locked, in one statement; answers whether it did. */
export async function deleteUnlockedWorkspace(trx: Trx, id: string): Promise<boolean> {
  const { numDeletedRows } = await trx
    .deleteFrom('workspaces')
    .where('id', '=', id)
    .where('locked_by_id', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(numDeletedRows) === 1;
}
