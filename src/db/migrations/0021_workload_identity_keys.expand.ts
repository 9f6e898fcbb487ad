import type { Kysely } from 'kysely';

/**
 * The keys varsetd signs workload identity tokens with, as an OpenID Connect issuer: each RSA
 * private key sealed like a sensitive value, its public half as the JWK the issuer publishes.
 * A key signs from `signs_from` until the next key's `signs_from` (`signs_until`, null while
 * no next key exists) and stays published until `published_until`, by when every token it
 * signed has expired.
 *
 * An expand migration: a table the release before it never reads nor writes, whose rows only
 * this build's servers make. That release's `rotate-key` and `keys list` do not know its sealed
 * column, though: rotate keys with this build once every host runs it (docs/deployment.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workload_identity_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('signs_from', 'text', (c) => c.notNull())
    .addColumn('signs_until', 'text')
    .addColumn('published_until', 'text')
    .execute();
}
