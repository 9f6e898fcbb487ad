import type { Subscriptions } from '../events/registry.js';
import { deleteOrganizationWorkspaces } from './service.js';

/** An organization's workspaces go before it: the projects its deletion cascades to are referenced by them. */
export function subscribe(on: Subscriptions): void {
  on.inTransaction('organization.deleting', ({ trx, organizationId }) =>
    deleteOrganizationWorkspaces(trx, organizationId),
  );
}
