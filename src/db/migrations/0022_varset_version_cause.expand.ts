import type { Kysely } from 'kysely';

/**
 * Why a set's version was written, when its writer said more than a request does (an import
 * names its source: `import from https://…`). Null for every version before, and for every write
 * that gives no cause. Only added: a server that does not know it writes versions without it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('varset_versions').addColumn('cause', 'text').execute();
}
