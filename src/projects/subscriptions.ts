import type { Subscriptions } from '../events/registry.js';
import { createDefaultProject, followOrganizationSettings } from './service.js';

/** Every organization has a default project, and its projects that follow its execution mode follow it. */
export function subscribe(on: Subscriptions): void {
  on.inTransaction('organization.created', ({ trx, organization }) => createDefaultProject(trx, organization));
  on.inTransaction('organization.updated', ({ trx, organization }) => followOrganizationSettings(trx, organization));
}
