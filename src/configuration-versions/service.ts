import type { Context } from '../context.js';
import { ensure } from '../auth/policy.js';
import { generateSecret, hashToken } from '../auth/tokens.js';
import type { Store } from '../db/connect.js';
import { newId, now } from '../ids.js';
import { ApiError, notFound, unprocessable } from '../jsonapi/errors.js';
import { ResourceInput } from '../jsonapi/payload.js';
import type { Page } from '../jsonapi/query.js';
import { getWorkspace } from '../workspaces/service.js';
import { MAX_ARCHIVE_BYTES, archiveProblem } from './archive.js';
import { findConfigurationVersion, listConfigurationVersions, type ConfigurationVersion } from './store.js';

/** How long the upload credential handed out with a new configuration version stays usable. */
export const UPLOAD_LIFETIME_MS = 60 * 60 * 1000;

/**
 * Creates a pending configuration version in a workspace, with a fresh single-use upload
 * credential. Only the credential's hash is stored; the secret is returned once, for the upload URL.
 * Creating one needs the permission to queue runs, as in HCP Terraform.
 */
export async function createConfigurationVersion(ctx: Context, workspaceId: string, body: unknown): Promise<{ cv: ConfigurationVersion; uploadSecret: string }> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:create');
  // The attributes are all optional, so no body at all is as good as an empty one.
  const input = body === undefined ? undefined : ResourceInput.read(body, 'configuration-versions');
  const flag = (name: string, fallback: boolean) => ((input?.boolean(name) ?? fallback));
  const uploadSecret = generateSecret();
  const cv: ConfigurationVersion = {
    id: newId('cv'),
    workspace_id: workspace.id,
    status: 'pending',
    auto_queue_runs: flag('auto-queue-runs', true),
    speculative: flag('speculative', false),
    provisional: flag('provisional', false),
    error: null,
    error_message: null,
    upload_secret_hash: hashToken(uploadSecret),
    upload_expires_at: new Date(Date.now() + UPLOAD_LIFETIME_MS).toISOString(),
    created_at: now(),
    uploaded_at: null,
    errored_at: null,
  };
  await ctx.store.db.insertInto('configuration_versions').values(cv).execute();
  return { cv, uploadSecret };
}

export async function getConfigurationVersion(ctx: Context, id: string): Promise<ConfigurationVersion> {
  const found = await findConfigurationVersion(ctx.store.db, id);
  if (!found) throw notFound();
  ensure(ctx.subject, 'run:read', found.target);
  return found.cv;
}

export async function listWorkspaceConfigurationVersions(ctx: Context, workspaceId: string, page: Page) {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:read');
  return listConfigurationVersions(ctx.store.db, workspace.id, page);
}

/** The uploaded archive, byte for byte; 404 while nothing was uploaded. */
export async function getConfigurationVersionArchive(ctx: Context, id: string): Promise<Buffer> {
  const cv = await getConfigurationVersion(ctx, id);
  const row = await ctx.store.db.selectFrom('configuration_version_archives').select('data').where('configuration_version_id', '=', cv.id).executeTakeFirst();
  if (!row) throw notFound();
  return row.data;
}

/**
 * An upload in progress: the configuration version a credential opens. The credential is
 * the whole authorization of an upload (the client sends no token), so every write below
 * is conditional on it still being unused.
 */
export interface PendingUpload {
  configurationVersionId: string;
  secretHash: string;
}

/** The pending configuration version `secret` opens; an unknown, used or expired credential is a 404. */
export async function openUpload(store: Store, secret: string): Promise<PendingUpload> {
  const secretHash = hashToken(secret);
  const row = await pendingUploads(store, secretHash).select('id').executeTakeFirst();
  if (!row) throw notFound();
  return { configurationVersionId: row.id, secretHash };
}

function pendingUploads(store: Store, secretHash: string) {
  return store.db.selectFrom('configuration_versions').where('upload_secret_hash', '=', secretHash).where('status', '=', 'pending').where('upload_expires_at', '>', now());
}

/** Keeps a valid archive and marks the version uploaded; anything else marks it errored and answers 422. */
export async function completeUpload(store: Store, upload: PendingUpload, archive: Buffer): Promise<void> {
  const problem = await archiveProblem(archive);
  if (problem !== null) {
    await failUpload(store, upload, 'invalid_archive', problem);
    throw unprocessable(`${problem}: upload a tar archive compressed with gzip`);
  }
  await store.db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('configuration_versions')
      .set({ status: 'uploaded', uploaded_at: now(), upload_secret_hash: null, upload_expires_at: null })
      .where('id', '=', upload.configurationVersionId)
      .where('upload_secret_hash', '=', upload.secretHash)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    // Another request used the credential while this body was being read.
    if (result.numUpdatedRows === 0n) throw notFound();
    await trx.insertInto('configuration_version_archives').values({ configuration_version_id: upload.configurationVersionId, data: archive }).execute();
  });
}

/** Marks the version errored because the upload was larger than allowed, and answers 413. */
export async function rejectOversizedUpload(store: Store, upload: PendingUpload): Promise<never> {
  const detail = `the archive may be at most ${MAX_ARCHIVE_BYTES} bytes`;
  await failUpload(store, upload, 'archive_too_large', detail);
  throw new ApiError(413, [{ status: '413', title: 'payload too large', detail }]);
}

/** Uses up the credential and records why the upload failed. */
async function failUpload(store: Store, upload: PendingUpload, error: string, message: string): Promise<void> {
  const result = await store.db
    .updateTable('configuration_versions')
    .set({ status: 'errored', error, error_message: message, errored_at: now(), upload_secret_hash: null, upload_expires_at: null })
    .where('id', '=', upload.configurationVersionId)
    .where('upload_secret_hash', '=', upload.secretHash)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound();
}
