/**
 * A configuration version: an upload slot for a workspace's configuration, then the archive
 * uploaded to it. Its upload credential is the store's business (see `PendingUpload`).
 */
export interface ConfigurationVersion {
  id: string;
  workspace_id: string;
  status: 'pending' | 'uploaded' | 'errored' | 'archived';
  auto_queue_runs: boolean;
  speculative: boolean;
  provisional: boolean;
  error: string | null;
  error_message: string | null;
  created_at: string;
  uploaded_at: string | null;
  errored_at: string | null;
  archived_at: string | null;
}

/**
 * An upload in progress: the configuration version a credential opens. The credential is
 * the whole authorization of an upload (the client sends no token), so every write of an
 * upload is conditional on it still opening the version.
 */
export interface PendingUpload {
  configurationVersionId: string;
  secretHash: string;
}

/** How long the upload credential handed out with a new configuration version stays usable. */
export const UPLOAD_LIFETIME_MS = 60 * 60 * 1000;
