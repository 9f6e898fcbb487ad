import type { ExpressionBuilder } from 'kysely';
import { locationOf, WORKSPACE_LOCATION_COLUMNS, type WorkspaceLocation } from '../common/location.js';
import { fetchPage } from '../db/page.js';
import { lockConfigurationVersionRow } from '../db/row-lock.js';
import type { Database } from '../db/schema.js';
import type { Db, Trx } from '../db/transaction.js';
import { now } from '../common/ids.js';
import type { Page } from '../common/page.js';
import type { ConfigurationVersion, PendingUpload } from './model.js';

const COLUMNS = [
  'configuration_versions.id',
  'configuration_versions.workspace_id',
  'configuration_versions.status',
  'configuration_versions.auto_queue_runs',
  'configuration_versions.speculative',
  'configuration_versions.provisional',
  'configuration_versions.error',
  'configuration_versions.error_message',
  'configuration_versions.created_at',
  'configuration_versions.uploaded_at',
  'configuration_versions.errored_at',
  'configuration_versions.archived_at',
] as const;

/** Inserts a pending version with its upload credential: only the credential's hash is kept, while the version can still take an upload. */
export async function insertConfigurationVersion(
  db: Db,
  cv: ConfigurationVersion,
  upload: { secretHash: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('configuration_versions')
    .values({ ...cv, upload_secret_hash: upload.secretHash, upload_expires_at: upload.expiresAt })
    .execute();
}

/** A workspace's configuration versions, newest first. */
export async function listConfigurationVersions(
  db: Db,
  workspaceId: string,
  page: Page,
): Promise<{ rows: ConfigurationVersion[]; total: number }> {
  const base = db.selectFrom('configuration_versions').where('workspace_id', '=', workspaceId);
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('seq', 'desc'));
}

/** The configuration version and where it is, or undefined. */
export async function findConfigurationVersion(
  db: Db,
  id: string,
): Promise<{ cv: ConfigurationVersion; location: WorkspaceLocation } | undefined> {
  return (await findConfigurationVersions(db, [id]))[0];
}

export async function findArchive(db: Db, configurationVersionId: string): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('configuration_version_archives')
    .select('data')
    .where('configuration_version_id', '=', configurationVersionId)
    .executeTakeFirst();
  return row?.data;
}

/** No run uses the version yet: its archive may still be replaced. */
const unused = (eb: ExpressionBuilder<Database, 'configuration_versions'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('runs')
        .select('runs.id')
        .whereRef('runs.configuration_version_id', '=', 'configuration_versions.id'),
    ),
  );

/** The id of the unexpired, pending or uploaded version, used by no run, whose upload credential has this hash. */
export async function findOpenUpload(db: Db, secretHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('configuration_versions')
    .select('id')
    .where('upload_secret_hash', '=', secretHash)
    .where('status', 'in', ['pending', 'uploaded'])
    .where('upload_expires_at', '>', now())
    .where(unused)
    .executeTakeFirst();
  return row?.id;
}

/**
 * Keeps `data` as the version's archive, replacing any earlier one, and marks it uploaded;
 * false when the credential no longer opens it (expired, errored, archived, or a run uses it).
 */
export async function storeUploadedArchive(trx: Trx, upload: PendingUpload, data: Buffer): Promise<boolean> {
  await lockConfigurationVersionRow(trx, upload.configurationVersionId, 'update');
  const result = await trx
    .updateTable('configuration_versions')
    .set({ status: 'uploaded', uploaded_at: now() })
    .where('id', '=', upload.configurationVersionId)
    .where('upload_secret_hash', '=', upload.secretHash)
    .where('status', 'in', ['pending', 'uploaded'])
    .where('upload_expires_at', '>', now())
    .where(unused)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await trx
    .insertInto('configuration_version_archives')
    .values({ configuration_version_id: upload.configurationVersionId, data })
    .onConflict((oc) => oc.column('configuration_version_id').doUpdateSet({ data }))
    .execute();
  return true;
}

/** Marks a pending version errored and uses up its credential; false when it is not pending (an upload already succeeded, or the credential was used up). */
export async function markErrored(db: Db, upload: PendingUpload, error: string, message: string): Promise<boolean> {
  const result = await db
    .updateTable('configuration_versions')
    .set({
      status: 'errored',
      error,
      error_message: message,
      errored_at: now(),
      upload_secret_hash: null,
      upload_expires_at: null,
    })
    .where('id', '=', upload.configurationVersionId)
    .where('upload_secret_hash', '=', upload.secretHash)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The version, read again under a lock that keeps runs from starting on it until the transaction ends. */
export async function lockConfigurationVersion(trx: Trx, id: string): Promise<ConfigurationVersion | undefined> {
  await lockConfigurationVersionRow(trx, id, 'update');
  return trx.selectFrom('configuration_versions').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Whether a run that has not finished uses the version. */
export async function hasUnfinishedRun(db: Db, configurationVersionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('runs')
    .select('id')
    .where('configuration_version_id', '=', configurationVersionId)
    .where('status', 'in', ['pending', 'planning'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Archives the version: its archive is deleted and no upload can happen any more. */
export async function markArchived(trx: Trx, id: string): Promise<void> {
  await trx
    .updateTable('configuration_versions')
    .set({ status: 'archived', archived_at: now(), upload_secret_hash: null, upload_expires_at: null })
    .where('id', '=', id)
    .execute();
  await trx.deleteFrom('configuration_version_archives').where('configuration_version_id', '=', id).execute();
}

const RUNNABLE_COLUMNS = ['id', 'status', 'speculative'] as const;

/** The configuration version a run is to use: the one named (if it is in the workspace), or the workspace's latest uploaded one. */
export async function findRunnableConfigurationVersion(trx: Trx, workspaceId: string, id: string | undefined) {
  const query = trx
    .selectFrom('configuration_versions')
    .select(RUNNABLE_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  const found = await (
    id === undefined
      ? query.where('status', '=', 'uploaded').orderBy('seq', 'desc').limit(1)
      : query.where('id', '=', id)
  ).executeTakeFirst();
  if (!found) return undefined;
  // Read again under the lock: an upload replacing the archive or an archiving waits for this run, or this run for it.
  await lockConfigurationVersionRow(trx, found.id, 'share');
  return trx
    .selectFrom('configuration_versions')
    .select(RUNNABLE_COLUMNS)
    .where('id', '=', found.id)
    .executeTakeFirst();
}

/** Configuration versions by id with where they are, those that exist. */
export async function findConfigurationVersions(
  db: Db,
  ids: string[],
): Promise<{ cv: ConfigurationVersion; location: WorkspaceLocation }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('configuration_versions')
    .innerJoin('workspaces', 'workspaces.id', 'configuration_versions.workspace_id')
    .select(COLUMNS)
    .select(WORKSPACE_LOCATION_COLUMNS)
    .where('configuration_versions.id', 'in', ids)
    .orderBy('configuration_versions.seq')
    .execute();
  return rows.map((row) => {
    const { organization_id: _o, project_id: _p, ...cv } = row;
    return { cv, location: locationOf(row) };
  });
}
