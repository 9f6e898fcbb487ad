import { locationOf, type WorkspaceLocation } from '../common/location.js';
import { fetchPage } from '../db/page.js';
import type { Db } from '../db/transaction.js';
import { now } from '../ids.js';
import type { Page } from '../jsonapi/query.js';
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
] as const;

/** Inserts a pending version with its upload credential: only the credential's hash is kept, until it is used or expires. */
export async function insertConfigurationVersion(db: Db, cv: ConfigurationVersion, upload: { secretHash: string; expiresAt: string }): Promise<void> {
  await db
    .insertInto('configuration_versions')
    .values({ ...cv, upload_secret_hash: upload.secretHash, upload_expires_at: upload.expiresAt })
    .execute();
}

/** A workspace's configuration versions, newest first. */
export async function listConfigurationVersions(db: Db, workspaceId: string, page: Page): Promise<{ rows: ConfigurationVersion[]; total: number }> {
  const base = db.selectFrom('configuration_versions').where('workspace_id', '=', workspaceId);
  return fetchPage(db, base, page, (q) => q.select(COLUMNS).orderBy('seq', 'desc'));
}

/** The configuration version and where it is, or undefined. */
export async function findConfigurationVersion(db: Db, id: string): Promise<{ cv: ConfigurationVersion; location: WorkspaceLocation } | undefined> {
  const row = await db
    .selectFrom('configuration_versions')
    .innerJoin('workspaces', 'workspaces.id', 'configuration_versions.workspace_id')
    .select(COLUMNS)
    .select(['workspaces.organization_id', 'workspaces.project_id'])
    .where('configuration_versions.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organization_id: _o, project_id: _p, ...cv } = row;
  return { cv, location: locationOf(row) };
}

export async function findArchive(db: Db, configurationVersionId: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('configuration_version_archives').select('data').where('configuration_version_id', '=', configurationVersionId).executeTakeFirst();
  return row?.data;
}

/** The id of the pending, unexpired configuration version whose upload credential has this hash. */
export async function findPendingUpload(db: Db, secretHash: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('configuration_versions')
    .select('id')
    .where('upload_secret_hash', '=', secretHash)
    .where('status', '=', 'pending')
    .where('upload_expires_at', '>', now())
    .executeTakeFirst();
  return row?.id;
}

/** Marks the version uploaded and uses up its credential; false when another request used the credential first. */
export async function markUploaded(db: Db, upload: PendingUpload): Promise<boolean> {
  const result = await db
    .updateTable('configuration_versions')
    .set({ status: 'uploaded', uploaded_at: now(), upload_secret_hash: null, upload_expires_at: null })
    .where('id', '=', upload.configurationVersionId)
    .where('upload_secret_hash', '=', upload.secretHash)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertArchive(db: Db, configurationVersionId: string, data: Buffer): Promise<void> {
  await db.insertInto('configuration_version_archives').values({ configuration_version_id: configurationVersionId, data }).execute();
}

/** Marks the version errored and uses up its credential; false when another request used the credential first. */
export async function markErrored(db: Db, upload: PendingUpload, error: string, message: string): Promise<boolean> {
  const result = await db
    .updateTable('configuration_versions')
    .set({ status: 'errored', error, error_message: message, errored_at: now(), upload_secret_hash: null, upload_expires_at: null })
    .where('id', '=', upload.configurationVersionId)
    .where('upload_secret_hash', '=', upload.secretHash)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The configuration version a run is to use: the one named (if it is in the workspace), or the workspace's latest uploaded one. */
export function findRunnableConfigurationVersion(db: Db, workspaceId: string, id: string | undefined) {
  const query = db.selectFrom('configuration_versions').select(['id', 'status', 'speculative']).where('workspace_id', '=', workspaceId);
  return (id === undefined ? query.where('status', '=', 'uploaded').orderBy('seq', 'desc').limit(1) : query.where('id', '=', id)).executeTakeFirst();
}

/** Configuration versions by id with where they are, those that exist. */
export async function findConfigurationVersions(db: Db, ids: string[]): Promise<{ cv: ConfigurationVersion; location: WorkspaceLocation }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('configuration_versions')
    .innerJoin('workspaces', 'workspaces.id', 'configuration_versions.workspace_id')
    .select(COLUMNS)
    .select(['workspaces.organization_id', 'workspaces.project_id'])
    .where('configuration_versions.id', 'in', ids)
    .orderBy('configuration_versions.seq')
    .execute();
  return rows.map(({ organization_id: _o, project_id: _p, ...cv }, i) => ({ cv, location: locationOf(rows[i]!) }));
}
