import type { Context } from '../auth/context.js';
import { can, ensure } from '../auth/decisions.js';
import { recordAuditEvent } from '../audit/service.js';
import { generateSecret, hashToken } from '../auth/tokens.js';
import { transaction, type Store, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Unprocessable, TransitionRefused, TooLarge } from '../common/errors.js';
import type { Page } from '../common/page.js';
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
 * Creates a pending configuration version in a workspace, with a fresh upload credential. Only the credential's hash is stored; the secret is returned once, for the upload URL.
 * Creating one needs the permission to queue runs, as in HCP Terraform.
 */
export async function createConfigurationVersion(
  ctx: Context,
  workspaceId: string,
  command: NewConfigurationVersion,
): Promise<{ cv: ConfigurationVersion; uploadSecret: string }> {
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
    archived_at: null,
  };
  const upload = {
    secretHash: hashToken(uploadSecret),
    expiresAt: new Date(Date.now() + UPLOAD_LIFETIME_MS).toISOString(),
  };
  await transaction(ctx.store, async (trx) => {
    await store.insertConfigurationVersion(trx, cv, upload);
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'configuration_version',
      id: cv.id,
      action: 'create',
      meta: { workspace_id: workspace.id, speculative: cv.speculative },
    });
  });
  return { cv, uploadSecret };
}

export async function getConfigurationVersion(ctx: Context, id: string): Promise<ConfigurationVersion> {
  const found = await store.findConfigurationVersion(ctx.store.db, id);
  if (!found) throw new NotFound();
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
  if (!archive) throw new NotFound();
  return archive;
}

/**
 * The configuration version `secret` opens. The credential stays valid for its hour and each
 * accepted upload replaces the archive, until a run uses the version (or it errored or was
 * archived). An unknown, expired or no longer usable credential is a 404.
 */
export async function openUpload(database: Store, secret: string): Promise<PendingUpload> {
  const secretHash = hashToken(secret);
  const id = await store.findOpenUpload(database.db, secretHash);
  if (id === undefined) throw new NotFound();
  return { configurationVersionId: id, secretHash };
}

/**
 * Keeps a valid archive (replacing an earlier one) and marks the version uploaded. Anything
 * else answers 422, and marks the version errored unless an earlier upload was accepted:
 * that archive and status are kept. The upload URL is the credential, so the audit trail
 * names the configuration version's upload as the actor.
 */
export async function completeUpload(
  database: Store,
  upload: PendingUpload,
  archive: Buffer,
  requestId: string,
): Promise<void> {
  const problem = await archiveProblem(archive);
  if (problem !== null) {
    await failUpload(database, upload, 'invalid_archive', problem);
    throw new Unprocessable(`${problem}: upload a tar archive compressed with gzip`);
  }
  await transaction(database, async (trx) => {
    // A run started on the version, or the credential expired, while this body was being read.
    if (!(await store.storeUploadedArchive(trx, upload, archive))) throw new NotFound();
    const id = upload.configurationVersionId;
    const found = await store.findConfigurationVersion(trx, id);
    if (!found) throw new NotFound();
    const actor = { accessorId: id, description: `upload URL of configuration version ${id}`, requestId };
    recordAuditEvent(trx, actor, {
      organizationId: found.location.organizationId,
      type: 'configuration_version',
      id,
      action: 'upload',
      meta: { bytes: archive.length },
    });
  });
}

/** Refuses an upload larger than allowed marking the version errored unless an earlier upload was accepted. */
export async function rejectOversizedUpload(database: Store, upload: PendingUpload): Promise<never> {
  const detail = `the archive may be at most ${MAX_ARCHIVE_BYTES} bytes`;
  await failUpload(database, upload, 'archive_too_large', detail);
  throw new TooLarge(detail);
}

/** Records why the first upload failed and uses up the credential; a version already uploaded is left as it is. */
async function failUpload(database: Store, upload: PendingUpload, error: string, message: string): Promise<void> {
  await transaction(database, (trx) => store.markErrored(trx, upload, error, message));
}

/**
 * Archives an uploaded version: its archive is discarded and its runs keep it by reference.
 * Only a caller who may queue runs on the workspace may; the workspace's current version and
 * one an unfinished run uses cannot be archived (409, as HCP Terraform answers).
 */
export async function archiveConfigurationVersion(ctx: Context, id: string): Promise<void> {
  const found = await store.findConfigurationVersion(ctx.store.db, id);
  if (!found) throw new NotFound();
  // Read before the lock, which is safe: a version that is not current never becomes current again.
  const { workspace } = await getWorkspace(ctx, { id: found.cv.workspace_id }, 'run:create');
  await transaction(ctx.store, async (trx) => {
    const cv = await store.lockConfigurationVersion(trx, id);
    if (!cv) throw new NotFound();
    if (cv.status !== 'uploaded')
      throw transitionNotAllowed(
        `configuration could not be archived because it is ${cv.status}; only an uploaded one can be`,
      );
    if (workspace.current_configuration_version_id === cv.id)
      throw transitionNotAllowed('configuration could not be archived because it is current');
    if (await store.hasUnfinishedRun(trx, cv.id))
      throw transitionNotAllowed('configuration could not be archived because a run that has not finished uses it');
    await store.markArchived(trx, cv.id);
    recordAuditEvent(trx, ctx, {
      organizationId: workspace.organization_id,
      type: 'configuration_version',
      id: cv.id,
      action: 'archive',
      meta: { workspace_id: workspace.id },
    });
  });
}

function transitionNotAllowed(detail: string): TransitionRefused {
  return new TransitionRefused(detail);
}

/** For a run, inside its transaction: the configuration version named, or the workspace's latest uploaded one; undefined when there is none. */
export function findRunnableConfigurationVersion(trx: Trx, workspaceId: string, id: string | undefined) {
  return store.findRunnableConfigurationVersion(trx, workspaceId, id);
}

/** The configuration versions by id that the subject may read (for another resource's `include`): one statement. */
export async function readableConfigurationVersions(ctx: Context, ids: string[]): Promise<ConfigurationVersion[]> {
  return (await store.findConfigurationVersions(ctx.store.db, ids))
    .filter((found) => can(ctx.subject, 'run:read', found.location))
    .map((found) => found.cv);
}
