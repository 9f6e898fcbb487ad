import { type Kysely } from 'kysely';

/**
 * Searching an organization's sets by name (`q`) matches a pattern against every set's
 * `search_name`; with this index the count of matches reads the index alone instead of
 * every set's row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('varsets_organization_search_idx').on('varsets').columns(['organization_id', 'search_name']).execute();
}
