import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type MigrationResultSet } from 'kysely';

/**
 * How long a migration on PostgreSQL waits for a lock before it lets go of all it holds and
 * starts again. Shorter than the server's `deadlock_timeout` (1 s unless configured lower), so
 * when a migration and the writes of servers still serving (an expand migration in a rolling
 * upgrade) wait on each other, the migration gives way before PostgreSQL picks a write to fail.
 */
export const MIGRATION_LOCK_WAIT_MS = 200;
/** How long in all a migration keeps trying before the start fails, naming the wait. */
export const MIGRATION_LOCK_DEADLINE_MS = 120_000;

/** PostgreSQL's `lock_not_available`: a wait for a lock outlasted `lock_timeout`. */
const isLockWait = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '55P03';

/**
 * Runs `migrate` (all pending migrations in one transaction) on a PostgreSQL connection with a
 * short `lock_timeout`, again from the start each time a lock is not had in time (the
 * transaction rolled back, nothing half done), until the deadline.
 */
export async function migrateGivingWay(
  db: Kysely<unknown>,
  migrate: () => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  const deadline = Date.now() + MIGRATION_LOCK_DEADLINE_MS;
  await sql`set lock_timeout = ${sql.lit(`${MIGRATION_LOCK_WAIT_MS}ms`)}`.execute(db);
  try {
    for (let attempt = 1; ; attempt++) {
      const outcome = await migrate();
      if (!isLockWait(outcome.error)) return outcome;
      if (Date.now() > deadline)
        return {
          ...outcome,
          error: new Error(
            `the migrations could not take their locks in ${MIGRATION_LOCK_DEADLINE_MS / 1000} s: ` +
              `other sessions kept holding them (${String((outcome.error as Error).message)})`,
          ),
        };
      await sleep(Math.min(1000, 50 * attempt) * (0.5 + Math.random()));
    }
  } finally {
    await sql`reset lock_timeout`.execute(db);
  }
}
