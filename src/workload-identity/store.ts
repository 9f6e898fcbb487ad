import type { WorkloadIdentityKeyTable } from '../db/schema.js';
import type { Db } from '../db/transaction.js';
import type { SigningKey } from './model.js';

/** The SQL of workload identity signing keys. */

type KeyRow = WorkloadIdentityKeyTable;

const toKey = (row: KeyRow): SigningKey => ({
  id: row.id,
  publicJwk: JSON.parse(row.public_jwk) as SigningKey['publicJwk'],
  sealedPrivateKey: row.private_key,
  createdAt: row.created_at,
  signsFrom: row.signs_from,
  signsUntil: row.signs_until,
  publishedUntil: row.published_until,
});

/** Every key not yet unpublished at `at` (the only ones that can sign or verify). */
export async function listLiveKeys(db: Db, at: string): Promise<SigningKey[]> {
  const rows = await db
    .selectFrom('workload_identity_keys')
    .selectAll()
    .where((eb) => eb.or([eb('published_until', 'is', null), eb('published_until', '>', at)]))
    .orderBy('signs_from')
    .orderBy('id')
    .execute();
  return rows.map(toKey);
}

export async function insertKey(db: Db, key: SigningKey): Promise<void> {
  await db
    .insertInto('workload_identity_keys')
    .values({
      id: key.id,
      public_jwk: JSON.stringify(key.publicJwk),
      private_key: key.sealedPrivateKey,
      created_at: key.createdAt,
      signs_from: key.signsFrom,
      signs_until: key.signsUntil,
      published_until: key.publishedUntil,
    })
    .execute();
}

/** Ends the signing of every key still open-ended at `until`, each published until `publishedUntil`. */
export async function closeOpenKeys(db: Db, until: string, publishedUntil: string): Promise<number> {
  const result = await db
    .updateTable('workload_identity_keys')
    .set({ signs_until: until, published_until: publishedUntil })
    .where('signs_until', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
