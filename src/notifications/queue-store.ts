import { skippingLockedRows } from '../db/claim.js';
import { transaction, type Db, type Store } from '../db/transaction.js';
import { versionFromRow } from '../varsets/versions/model.js';
import type { ChangeToSend, DestinationType } from './model.js';

/**
 * The SQL of the queue of deliveries (table varset_notification_deliveries, filled by a trigger
 * on varset_versions: migration 0019). A process claims due deliveries by leasing them; only
 * the earliest undelivered change of a set to a configuration is ever due, so a set's changes
 * reach each configuration in order, whichever processes send them.
 */

export interface ClaimedDelivery {
  id: number;
  /** Attempts made before this one. */
  attempts: number;
  configuration: {
    id: string;
    name: string;
    destinationType: DestinationType;
    url: string;
    sealedToken: string | null;
  };
  change: ChangeToSend;
}

/** Whether any delivery is due: a read that takes no lock, so that an idle queue costs one indexed lookup. */
export async function anyDue(store: Store, now: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('varset_notification_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Leases up to `limit` due deliveries to `owner` until `leaseUntil`, and reads what sending
 * them takes. Due: pending, its time come, leased to no one (or the lease ran out), and no
 * earlier change of its set still pending for its configuration.
 */
export async function claimDue(
  store: Store,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedDelivery[]> {
  return transaction(store, async (trx) => {
    const due = await skippingLockedRows(
      trx,
      trx
        .selectFrom('varset_notification_deliveries as d')
        .select('d.id')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('varset_notification_deliveries as e')
                .select('e.id')
                .whereRef('e.configuration_id', '=', 'd.configuration_id')
                .whereRef('e.varset_id', '=', 'd.varset_id')
                .whereRef('e.number', '<', 'd.number')
                .where('e.status', '=', 'pending'),
            ),
          ),
        )
        .orderBy('d.id')
        .limit(limit),
    ).execute();
    if (!due.length) return [];
    const ids = due.map((row) => Number(row.id));
    await trx
      .updateTable('varset_notification_deliveries')
      .set({ lease_owner: owner, lease_until: leaseUntil })
      .where('id', 'in', ids)
      .execute();
    const rows = await trx
      .selectFrom('varset_notification_deliveries as d')
      .innerJoin('varset_notification_configurations as c', 'c.id', 'd.configuration_id')
      .innerJoin('varset_versions as v', 'v.id', 'd.version_id')
      .innerJoin('organizations as o', 'o.id', 'v.organization_id')
      .select([
        'd.id',
        'd.attempts',
        'd.workspace_count',
        'c.id as configuration_id',
        'c.name',
        'c.destination_type',
        'c.url',
        'c.token',
        'v.id as version_id',
        'v.varset_id',
        'v.organization_id',
        'o.name as organization_name',
        'v.project_id',
        'v.number',
        'v.action',
        'v.rolled_back_to',
        'v.varset_name',
        'v.created_at',
        'v.actor_token_id',
        'v.actor_kind',
        'v.actor_team_id',
        'v.actor_description',
        'v.request_id',
        'v.cause',
        'v.changes',
      ])
      .where('d.id', 'in', ids)
      .orderBy('d.id')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      attempts: Number(row.attempts),
      configuration: {
        id: row.configuration_id,
        name: row.name,
        destinationType: row.destination_type,
        url: row.url,
        sealedToken: row.token,
      },
      change: {
        version: versionFromRow({ ...row, id: row.version_id }),
        workspaceCount: Number(row.workspace_count),
      },
    }));
  });
}

/** A delivery that was sent: it leaves the queue, unless its lease was lost (another process has it now). */
export async function completeDelivery(db: Db, id: number, owner: string): Promise<void> {
  await db.deleteFrom('varset_notification_deliveries').where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** An attempt that failed: tried again at `nextAttemptAt`, or, with none, marked failed for good. */
export async function failDelivery(
  db: Db,
  id: number,
  owner: string,
  attempts: number,
  nextAttemptAt: string | null,
): Promise<void> {
  await db
    .updateTable('varset_notification_deliveries')
    .set(
      nextAttemptAt === null
        ? { status: 'failed', attempts, lease_owner: null, lease_until: null }
        : { attempts, next_attempt_at: nextAttemptAt, lease_owner: null, lease_until: null },
    )
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** A delivery given back unsent (a shutdown interrupted it): due again at once, no attempt counted. */
export async function releaseDelivery(db: Db, id: number, owner: string): Promise<void> {
  await db
    .updateTable('varset_notification_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}
