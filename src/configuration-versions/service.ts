import type { Context } from '../context.js';
import { can, ensure } from '../auth/policy.js';
import { generateSecret, hashToken } from '../auth/tokens.js';
import { transaction, type Store, type Trx } from '../db/transaction.js';
import { newId, now } from '../ids.js';
import { ApiError, notFound, unprocessable } from '../jsonapi/errors.js';
import type { Page } from '../jsonapi/query.js';
import { getWorkspace } from '../workspaces/service.js';
import { MAX_ARCHIVE_BYTES, archiveProblem } from './archive.js';
import { UPLOAD_LIFETIME_MS, type ConfigurationVersion, type PendingUpload } from './model.js';
import * as store from './store.js';

export type { ConfigurationVersion, PendingUpload };

export interface NewConfigurationVersion {
  autoQueueRuns: boolean | undefined;
  speculative: boolean | undefined;
  provisional: boolean | undefined;
}

/**
 * Creates a pending configuration version in a workspace, with a fresh single-use upload
 * credential. Only the credential's hash is stored; the secret is returned once, for the upload URL.
 * Creating one needs the permission to queue runs, as in HCP Terraform.
 */
export async function createConfigurationVersion(ctx: Context, workspaceId: string, command: NewConfigurationVersion): Promise<{ cv: ConfigurationVersion; uploadSecret: string }> {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:create');
  const uploadSecret = generateSecret();
  const cv: ConfigurationVersion = {
    id: newId('cv'),
    workspace_id: workspace.id,
    status: 'pending',
    auto_queue_runs: command.autoQueueRuns ?? true,
    speculative: command.speculative ?? false,
    provisional: command.provisional ?? false,
    error: null,
    error_message: null,
    created_at: now(),
    uploaded_at: null,
    errored_at: null,
  };
  const upload = { secretHash: hashToken(uploadSecret), expiresAt: new Date(Date.now() + UPLOAD_LIFETIME_MS).toISOString() };
  await transaction(ctx.store, (trx) => store.insertConfigurationVersion(trx, cv, upload));
  return { cv, uploadSecret };
}

export async function getConfigurationVersion(ctx: Context, id: string): Promise<ConfigurationVersion> {
  const found = await store.findConfigurationVersion(ctx.store.db, id);
  if (!found) throw notFound();
  ensure(ctx.subject, 'run:read', found.location);
  return found.cv;
}

export async function listWorkspaceConfigurationVersions(ctx: Context, workspaceId: string, page: Page) {
  const { workspace } = await getWorkspace(ctx, { id: workspaceId }, 'run:read');
  return store.listConfigurationVersions(ctx.store.db, workspace.id, page);
}

/** The uploaded archive, byte for byte; 404 while nothing was uploaded. */
export async function getConfigurationVersionArchive(ctx: Context, id: string): Promise<Buffer> {
  const cv = await getConfigurationVersion(ctx, id);
  const archive = await store.findArchive(ctx.store.db, cv.id);
  if (!archive) throw notFound();
  return archive;
}

/** The pending configuration version `secret` opens; an unknown, used or expired credential is a 404. */
export async function openUpload(database: Store, secret: string): Promise<PendingUpload> {
  const secretHash = hashToken(secret);
  const id = await store.findPendingUpload(database.db, secretHash);
  if (id === undefined) throw notFound();
  return { configurationVersionId: id, secretHash };
}

/** Keeps a valid archive and marks the version uploaded; anything else marks it errored and answers 422. */
export async function completeUpload(database: Store, upload: PendingUpload, archive: Buffer): Promise<void> {
  const problem = await archiveProblem(archive);
  if (problem !== null) {
    await failUpload(database, upload, 'invalid_archive', problem);
    throw unprocessable(`${problem}: upload a tar archive compressed with gzip`);
  }
  await transaction(database, async (trx) => {
    // Another request used the credential while this body was being read.
    if (!(await store.markUploaded(trx, upload))) throw notFound();
    await store.insertArchive(trx, upload.configurationVersionId, archive);
  });
}

/** Marks the version errored because the upload was larger than allowed, and answers 413. */
export async function rejectOversizedUpload(database: Store, upload: PendingUpload): Promise<never> {
  const detail = `the archive may be at most ${MAX_ARCHIVE_BYTES} bytes`;
  await failUpload(database, upload, 'archive_too_large', detail);
  throw new ApiError(413, [{ status: '413', title: 'payload too large', detail }]);
}

/** Uses up the credential and records why the upload failed. */
async function failUpload(database: Store, upload: PendingUpload, error: string, message: string): Promise<void> {
  const failed = await transaction(database, (trx) => store.markErrored(trx, upload, error, message));
  if (!failed) throw notFound();
}

/** For a run, inside its transaction: the configuration version named, or the workspace's latest uploaded one; undefined when there is none. */
export function findRunnableConfigurationVersion(trx: Trx, workspaceId: string, id: string | undefined) {
  return store.findRunnableConfigurationVersion(trx, workspaceId, id);
}

/** The configuration versions by id that the subject may read (for another resource's `include`): one statement. */
export async function readableConfigurationVersions(ctx: Context, ids: string[]): Promise<ConfigurationVersion[]> {
  return (await store.findConfigurationVersions(ctx.store.db, ids)).filter((found) => can(ctx.subject, 'run:read', found.location)).map((found) => found.cv);
}
