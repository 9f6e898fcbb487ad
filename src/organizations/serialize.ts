import type { Static } from 'typebox';
import type { Organization } from './model.js';
import type { OrganizationResource } from './schemas.js';

/** An organization; its JSON:API id is its name, as clients read the name from the id. */
export function serializeOrganization(org: Organization): Static<typeof OrganizationResource> {
  return {
    id: org.name,
    type: 'organizations',
    attributes: {
      name: org.name,
      email: org.email,
      'created-at': org.created_at,
      'external-id': org.id,
    },
    links: { self: `/api/v2/organizations/${encodeURIComponent(org.name)}` },
  };
}
