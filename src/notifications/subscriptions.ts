import type { Subscriptions } from '../events/registry.js';

declare module '../events/registry.js' {
  interface DomainEvents {
    /**
     * A version of a set was recorded (a row of varset_versions): by the write path of sets, or
     * by a workspace's or project's deletion. Published by the database, where the row is
     * inserted, since only its trigger sees every such row, whichever server wrote it.
     */
    'varset.versioned': Record<string, never>;
  }
}

/**
 * A change of a set is queued for delivery to every enabled configuration of its organization
 * whose triggers name it, in the transaction that records its version: by the trigger
 * varset_versions_notify of migration 0019, not by code here.
 *
 * Why the database still does it: servers of 0.3.0 may write beside this one during a rolling
 * upgrade (docs/deployment.md#upgrading), and their versions must queue their notifications
 * too. The trigger queues those of every server, exactly once each; queueing in code as well
 * would queue this server's twice, and dropping or narrowing the trigger would be a contract
 * migration. Once no 0.3.0 server can be running (the release after the next), the queueing can
 * move here, in a reaction to 'varset.written' and to the deletions' versions, with the trigger
 * dropped in that release's contract migration. test/events.test.ts holds the trigger to this
 * declaration: it exists on both stores, and a version queues one delivery per configuration.
 */
export function subscribe(on: Subscriptions): void {
  on.inDatabase('varset.versioned', {
    feature: 'notifications',
    trigger: 'varset_versions_notify',
    table: 'varset_versions',
    does: 'queues a delivery of the version to each enabled configuration of its organization whose triggers name its action',
  });
}
