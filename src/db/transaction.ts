import type { Kysely, Transaction } from 'kysely';
import { isForeignKeyViolation, isUniqueViolation, type OrganizationOfWrite, type Store } from './connect.js';
import type { Database } from './schema.js';

export type { Store };

/** The database or a transaction: what every store function works on. */
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

/**
 * A write that lost a race twice: a concurrent change kept breaking a unique index or a
 * foreign key after the write's own checks had passed. Answered as a conflict: retrying later
 * sees the new state.
 */
export class ConcurrentChangeError extends Error {
  constructor(readonly code: unknown) {
    super('the request conflicts with a concurrent change; try again');
  }
}

/**
 * Runs `work` in one transaction. Every write goes through here (or `withOrganizationLocked`),
 * so a lost race has one answer everywhere: when a concurrent transaction committed a row that
 * breaks a unique index or removed one a foreign key needs after `work` checked, `work` runs
 * once more, and its checks, now seeing that change, answer as they would have (a name taken,
 * the global rule, a 404). Should that happen again, the request fails with a
 * `ConcurrentChangeError`. `work` must therefore do all its checks itself, inside the transaction.
 */
export async function transaction<T>(store: Store, work: (trx: Trx) => Promise<T>): Promise<T> {
  try {
    return await store.db.transaction().execute(work);
  } catch (error) {
    if (!isRace(error)) throw error;
  }
  try {
    return await store.db.transaction().execute(work);
  } catch (error) {
    if (isRace(error)) throw new ConcurrentChangeError((error as { code?: unknown }).code);
    throw error;
  }
}

/**
 * `transaction`, taking the organization's lock (`Store.lockOrganization`) before anything else:
 * every transaction that changes or deletes sets, their variables and assignments, projects or
 * workspaces serializes on its organization this way.
 */
export function withOrganizationLocked<T>(store: Store, organization: OrganizationOfWrite, work: (trx: Trx) => Promise<T>): Promise<T> {
  return transaction(store, async (trx) => {
    await store.lockOrganization(trx, organization);
    return work(trx);
  });
}

function isRace(error: unknown): boolean {
  return isUniqueViolation(error) || isForeignKeyViolation(error);
}
