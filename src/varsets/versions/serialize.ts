import type { Static } from 'typebox';
import { API_PREFIX } from '../../jsonapi/document.js';
import type { VarsetVersion } from './model.js';
import type { VarsetVersionResource } from './schemas.js';

export function serializeVarsetVersion(version: VarsetVersion): Static<typeof VarsetVersionResource> {
  return {
    id: version.id,
    type: 'varset-versions',
    attributes: {
      number: version.number,
      action: version.action,
      'rolled-back-to': version.rolledBackTo,
      'varset-name': version.varsetName,
      'created-at': version.createdAt,
      actor: {
        'token-id': version.actor.tokenId,
        kind: version.actor.kind,
        'team-id': version.actor.teamId,
        description: version.actor.description,
      },
      'request-id': version.requestId,
      cause: version.cause,
      changes: version.changes,
    },
    relationships: {
      varset: {
        data: { id: version.varsetId, type: 'varsets' },
        links: { related: `${API_PREFIX}/varsets/${version.varsetId}` },
      },
      organization: {
        data: { id: version.organizationName, type: 'organizations' },
        links: { related: `${API_PREFIX}/organizations/${encodeURIComponent(version.organizationName)}` },
      },
    },
    links: { self: `${API_PREFIX}/varset-versions/${version.id}` },
  };
}
