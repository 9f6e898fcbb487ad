import type { Kysely } from 'kysely';

/**
 * Whether an organization takes user tokens (`user-tokens-enabled`) is kept beside its settings
 * as a column of its own, indexed, so that finding a site-admin token's refusing
 * organizations is an index lookup rather than a read of every organization's settings. The
 * settings column is the `JSON.stringify` of the settings object (no spaces, a `"` inside a
 * string value escaped), so this pattern only matches the key itself set to false.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('user_tokens_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.updateTable('organizations').set({ user_tokens_enabled: 0 }).where('settings', 'like', '%"user-tokens-enabled":false%').execute();
  await db.schema.createIndex('organizations_user_tokens_enabled').on('organizations').column('user_tokens_enabled').execute();
}
