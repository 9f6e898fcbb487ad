import type { Subscriptions } from '../events/registry.js';
import { createOwnersTeam } from './service.js';

/** Every organization has its owners team. */
export function subscribe(on: Subscriptions): void {
  on.inTransaction('organization.created', ({ trx, organization }) => createOwnersTeam(trx, organization));
}
