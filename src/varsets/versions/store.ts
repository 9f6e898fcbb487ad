import { boundOnce, compiledOnce } from '../../db/compiled-once.js';
import { appendAtCommit, type Db, type Trx } from '../../db/transaction.js';
import type { Page } from '../../common/page.js';
import { fetchPage } from '../../db/page.js';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.js';
import { versionFromRow, type Change, type UndoableVersion, type VarsetVersion } from './model.js';

/** The SQL of set versions: the versions themselves (a set's state as they see it is read by ../state-store.ts). */

/** The number of the set's newest version (null: none), as a column of a statement that selects sets. */
export const newestVersionNumber = (eb: ExpressionBuilder<Database, 'varsets'>) =>
  eb
    .selectFrom('varset_versions')
    .select('varset_versions.number')
    .whereRef('varset_versions.varset_id', '=', 'varsets.id')
    .orderBy('varset_versions.number', 'desc')
    .limit(1);

const lastNumber = compiledOnce((db, varsetId: string) =>
  db
    .selectFrom('varset_versions')
    .select('number')
    .where('varset_id', '=', varsetId)
    .orderBy('number', 'desc')
    .limit(1),
);

/** The number of the set's newest version; 0 when it has none. */
export async function findLastVersionNumber(db: Db, varsetId: string): Promise<number> {
  const [row] = await lastNumber(db, varsetId);
  return row ? Number(row.number) : 0;
}

/** A version and, apart, what undoing it takes. */
export type RecordedVersion = Omit<VarsetVersion, 'organizationName'> & { sealed: Record<string, string> };

export function insertVersion(trx: Trx, version: RecordedVersion): void {
  const { actor } = version;
  const sealed = Object.keys(version.sealed).length ? JSON.stringify(version.sealed) : null;
  appendAtCommit(
    trx,
    INSERT_VERSION(
      trx,
      version.id,
      version.varsetId,
      version.organizationId,
      version.projectId,
      version.number,
      version.action,
      version.rolledBackTo,
      version.varsetName,
      version.createdAt,
      actor.tokenId,
      actor.kind,
      actor.teamId,
      actor.description,
      version.requestId,
      JSON.stringify(version.changes),
      sealed,
      version.cause,
    ),
  );
}

/** Every write to a set runs it: built and compiled once. */
const INSERT_VERSION = boundOnce(
  (
    db,
    id: string,
    varsetId: string,
    organizationId: string,
    projectId: string | null,
    number: number,
    action: VarsetVersion['action'],
    rolledBackTo: number | null,
    varsetName: string,
    createdAt: string,
    tokenId: string,
    kind: VarsetVersion['actor']['kind'],
    teamId: string | null,
    description: string,
    requestId: string,
    changes: string,
    sealed: string | null,
    cause: string | null,
  ) =>
    db.insertInto('varset_versions').values({
      id,
      varset_id: varsetId,
      organization_id: organizationId,
      project_id: projectId,
      number,
      action,
      rolled_back_to: rolledBackTo,
      varset_name: varsetName,
      created_at: createdAt,
      actor_token_id: tokenId,
      actor_kind: kind,
      actor_team_id: teamId,
      actor_description: description,
      request_id: requestId,
      changes,
      sealed,
      cause,
    }),
);

const SHOWN_COLUMNS = [
  'varset_versions.id',
  'varset_versions.varset_id',
  'varset_versions.organization_id',
  'varset_versions.project_id',
  'varset_versions.number',
  'varset_versions.action',
  'varset_versions.rolled_back_to',
  'varset_versions.varset_name',
  'varset_versions.created_at',
  'varset_versions.actor_token_id',
  'varset_versions.actor_kind',
  'varset_versions.actor_team_id',
  'varset_versions.actor_description',
  'varset_versions.request_id',
  'varset_versions.cause',
  'varset_versions.changes',
  'organizations.name as organization_name',
] as const;

/** Versions as responses show them: with their organization's name. */
const selectVersions = (db: Db) =>
  db
    .selectFrom('varset_versions')
    .innerJoin('organizations', 'organizations.id', 'varset_versions.organization_id')
    .select(SHOWN_COLUMNS);

const versionById = compiledOnce((db, id: string) => selectVersions(db).where('varset_versions.id', '=', id));

export async function findVersion(db: Db, id: string): Promise<VarsetVersion | undefined> {
  const [row] = await versionById(db, id);
  return row && versionFromRow(row);
}

const newestVersion = compiledOnce((db, varsetId: string) =>
  selectVersions(db)
    .where('varset_versions.varset_id', '=', varsetId)
    .orderBy('varset_versions.number', 'desc')
    .limit(1),
);

/** The set's newest version: for a deleted set, its deletion. */
export async function findNewestVersion(db: Db, varsetId: string): Promise<VarsetVersion | undefined> {
  const [row] = await newestVersion(db, varsetId);
  return row && versionFromRow(row);
}

/**
 * A page of the set's versions, newest first, and how many it has. A set's versions are
 * numbered 1 to its newest without a gap, so the newest number is the count, and a page is a
 * range of numbers read from the index: two lookups, however long the history.
 */
export async function pageOfVersions(
  db: Db,
  varsetId: string,
  page: Page,
): Promise<{ rows: VarsetVersion[]; total: number }> {
  const total = await findLastVersionNumber(db, varsetId);
  const highest = total - (page.number - 1) * page.size;
  if (highest < 1) return { rows: [], total };
  const rows = await PAGE_OF_VERSIONS(db, varsetId, highest, Math.max(1, highest - page.size + 1));
  return { rows: rows.map(versionFromRow), total };
}

const PAGE_OF_VERSIONS = compiledOnce((db, varsetId: string, highest: number, lowest: number) =>
  selectVersions(db)
    .where('varset_versions.varset_id', '=', varsetId)
    .where('varset_versions.number', '<=', highest)
    .where('varset_versions.number', '>=', lowest)
    .orderBy('varset_versions.number', 'desc'),
);

/** The versions after `number`, newest first, with what undoing each takes. */
export async function findVersionsAfter(db: Db, varsetId: string, number: number): Promise<UndoableVersion[]> {
  const rows = await db
    .selectFrom('varset_versions')
    .select(['number', 'changes', 'sealed'])
    .where('varset_id', '=', varsetId)
    .where('number', '>', number)
    .orderBy('number', 'desc')
    .execute();
  return rows.map((row) => ({
    number: Number(row.number),
    changes: JSON.parse(row.changes) as Change[],
    sealed: row.sealed === null ? {} : (JSON.parse(row.sealed) as Record<string, string>),
  }));
}

/**
 * The deletions of an organization's sets that are deleted now, newest first, and how many: each
 * a set's newest version when that is its deletion and no set of its id exists (restoring one
 * makes a newer version, and the set again). Read from the partial index of deletions
 * (migration 0023), not from every version of the organization.
 */
export function pageOfDeletedSets(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<{ rows: VarsetVersion[]; total: number }> {
  const deletions = db
    .selectFrom('varset_versions')
    .where('varset_versions.organization_id', '=', organizationId)
    // Written as a literal, not a parameter, so that both stores see the partial index's condition.
    .where(sql<boolean>`${sql.ref('varset_versions.action')} = ${sql.lit('delete')}`)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('varsets').select('varsets.id').whereRef('varsets.id', '=', 'varset_versions.varset_id'))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('varset_versions as later')
            .select('later.id')
            .whereRef('later.varset_id', '=', 'varset_versions.varset_id')
            .whereRef('later.number', '>', 'varset_versions.number'),
        ),
      ),
    );
  return fetchPage(db, deletions, page, (query) =>
    query
      .innerJoin('organizations', 'organizations.id', 'varset_versions.organization_id')
      .select(SHOWN_COLUMNS)
      .orderBy('varset_versions.created_at', 'desc')
      .orderBy('varset_versions.id', 'desc'),
  ).then(({ rows, total }) => ({ rows: rows.map(versionFromRow), total }));
}
