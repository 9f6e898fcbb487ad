import { sql, type Kysely } from 'kysely';

/**
 * Two indexes, and nothing else: an expand migration.
 *
 * - Finding the sets that define a variable key (`filter[var][key]` of an organization's list)
 *   reads the variables of that key from `varset_variables_key_idx`, then each one's set by its
 *   primary key, instead of every variable of the organization.
 * - Listing an organization's deleted sets reads its deletions from `varset_versions_deletions`,
 *   partial (only the versions whose action is `delete`), newest first, instead of every version
 *   of the organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('varset_variables_key_idx')
    .on('varset_variables')
    .columns(['key', 'varset_id'])
    .execute();
  await db.schema
    .createIndex('varset_versions_deletions')
    .on('varset_versions')
    .columns(['organization_id', 'created_at', 'id'])
    .where(sql<boolean>`action = 'delete'`)
    .execute();
}
