import type { Kysely } from 'kysely';

/**
 * What `varsetd exec` needs of a run: the token that created it (only that token may read
 * the run's sensitive values or move its status) and when its plan started and finished.
 * Runs created before have no creating token, so nobody can read their sensitive values.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('created_by_token_id', 'text').execute();
  await db.schema.alterTable('runs').addColumn('planning_at', 'text').execute();
  await db.schema.alterTable('runs').addColumn('finished_at', 'text').execute();
}
