import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { Organization, OrganizationRecord } from './model.js';
import type { OrganizationPermission } from '../auth/permissions.js';
import { ENTITLEMENTS } from './entitlements.js';
import type { EntitlementSetResource, OrganizationResource } from './schemas.js';

/**
 * An organization; its JSON:API id is its name, as clients read the name from the id.
 * `permissions` are the caller's (`organizationPermissions` in auth/permissions.ts). varsetd has no
 * plans, trials, SAML, HYOK, stacks or users: what describes them says so.
 */
export function serializeOrganization(
  org: OrganizationRecord,
  permissions: Record<OrganizationPermission, boolean>,
): Static<typeof OrganizationResource> {
  return {
    id: org.name,
    type: 'organizations',
    attributes: {
      name: org.name,
      email: org.email,
      'created-at': org.created_at,
      'external-id': org.id,
      ...org.settings,
      'saml-enabled': false,
      // With no users, no member falls short of the authentication policy.
      'two-factor-conformant': true,
      'is-in-degraded-mode': false,
      'is-unified': false,
      'stacks-enabled': false,
      'enforce-hyok': false,
      'max-ttl-enabled': false,
      'trial-expires-at': null,
      'plan-expired': false,
      'plan-expires-at': null,
      'plan-is-trial': false,
      'plan-is-enterprise': false,
      permissions,
    },
    relationships: {
      'default-project': { data: { id: org.default_project_id, type: 'projects' } },
      'default-agent-pool': { data: null },
      'entitlement-set': { data: { id: org.id, type: 'entitlement-sets' } },
    },
    links: { self: `${API_PREFIX}/organizations/${encodeURIComponent(org.name)}` },
  };
}

/** An organization's entitlement set: its id is the organization's internal one, as in HCP Terraform. */
export function serializeEntitlementSet(org: Organization): Static<typeof EntitlementSetResource> {
  return {
    id: org.id,
    type: 'entitlement-sets',
    attributes: ENTITLEMENTS,
    links: { self: `${API_PREFIX}/entitlement-sets/${org.id}` },
  };
}
