import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { ShownConfiguration } from './service.js';
import { CONFIGURATION_TYPE, type ConfigurationResource } from './schemas.js';

export function serializeConfiguration({
  configuration,
  responses,
}: ShownConfiguration): Static<typeof ConfigurationResource> {
  return {
    id: configuration.id,
    type: CONFIGURATION_TYPE,
    attributes: {
      name: configuration.name,
      'destination-type': configuration.destinationType,
      url: configuration.url,
      'has-token': configuration.sealedToken !== null,
      enabled: configuration.enabled,
      triggers: configuration.triggers,
      'created-at': configuration.createdAt,
      'updated-at': configuration.updatedAt,
      'delivery-responses': responses.map((response) => ({
        url: response.url,
        code: response.code,
        body: response.body,
        headers: response.headers,
        error: response.error,
        successful: response.successful,
        'sent-at': response.sentAt,
        'varset-id': response.varsetId,
        'version-number': response.versionNumber,
        attempt: response.attempt,
      })),
    },
    relationships: {
      organization: {
        data: { id: configuration.organizationName, type: 'organizations' },
        links: { related: `${API_PREFIX}/organizations/${configuration.organizationName}` },
      },
    },
    links: { self: `${API_PREFIX}/${CONFIGURATION_TYPE}/${configuration.id}` },
  };
}
