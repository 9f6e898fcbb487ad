import type { Static } from 'typebox';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import type { ConfigurationVersion } from './model.js';
import type { ConfigurationVersionResource } from './schemas.js';

/**
 * A configuration version. `uploadUrl` is only known when the version is created: the
 * server keeps a hash of the upload credential, never the credential itself.
 */
export function serializeConfigurationVersion(
  cv: ConfigurationVersion,
  uploadUrl: string | null = null,
): Static<typeof ConfigurationVersionResource> {
  const timestamps: { 'uploaded-at'?: string; 'errored-at'?: string; 'archived-at'?: string } = {};
  if (cv.uploaded_at !== null) timestamps['uploaded-at'] = cv.uploaded_at;
  if (cv.errored_at !== null) timestamps['errored-at'] = cv.errored_at;
  if (cv.archived_at !== null) timestamps['archived-at'] = cv.archived_at;
  const self = `${API_PREFIX}/configuration-versions/${cv.id}`;
  return {
    id: cv.id,
    type: 'configuration-versions',
    attributes: {
      'auto-queue-runs': cv.auto_queue_runs,
      error: cv.error,
      'error-message': cv.error_message,
      provisional: cv.provisional,
      source: 'tfe-api',
      speculative: cv.speculative,
      status: cv.status,
      'status-timestamps': timestamps,
      'upload-url': uploadUrl,
    },
    relationships: {
      'ingress-attributes': toOne('ingress-attributes', null),
    },
    links: { self, ...(cv.status === 'uploaded' ? { download: `${self}/download` } : {}) },
  };
}
