import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../db/connect.js';
import { newId, now, randomAlphanumeric } from '../ids.js';
import type { Subject } from './subject.js';

/** Tokens are stored only as the hex SHA-256 of their secret. */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateSecret(): string {
  return randomAlphanumeric(64);
}

const CONFIGURED_ADMIN = 'site-admin token from VARSETD_ADMIN_TOKEN';
const GENERATED_ADMIN = 'site-admin token generated on first start';

/** The subject a bearer secret stands for, or null when the token is unknown or expired. */
export async function authenticate(store: Store, secret: string): Promise<Subject | null> {
  const row = await store.db
    .selectFrom('tokens')
    .select(['id', 'kind', 'organization_id', 'team_id', 'expired_at'])
    .where('token_hash', '=', hashToken(secret))
    .executeTakeFirst();
  if (!row) return null;
  if (row.expired_at !== null && row.expired_at <= now()) return null;
  switch (row.kind) {
    case 'site-admin':
      return { kind: 'site-admin', tokenId: row.id };
    case 'organization':
      return row.organization_id ? { kind: 'organization', tokenId: row.id, organizationId: row.organization_id } : null;
    case 'team':
      return row.organization_id && row.team_id
        ? { kind: 'team', tokenId: row.id, teamId: row.team_id, organizationId: row.organization_id }
        : null;
    default:
      return null;
  }
}

/**
 * Makes sure a site-admin token exists. With `configured`, exactly that secret works (a
 * previously configured, different one is revoked). Without it, a token is generated the
 * first time, written to `<dataDir>/admin-token` (mode 0600) and returned so it can be shown once.
 */
export async function ensureAdminToken(store: Store, configured: string | undefined, dataDir: string): Promise<string | undefined> {
  if (configured !== undefined) {
    const hash = hashToken(configured);
    await store.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('tokens').where('description', '=', CONFIGURED_ADMIN).where('token_hash', '<>', hash).execute();
      const existing = await trx.selectFrom('tokens').select('id').where('token_hash', '=', hash).executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto('tokens')
          .values({ id: newId('at'), token_hash: hash, kind: 'site-admin', organization_id: null, team_id: null, description: CONFIGURED_ADMIN, created_at: now(), expired_at: null })
          .execute();
      }
    });
    return undefined;
  }
  const existing = await store.db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirst();
  if (existing) return undefined;
  const secret = generateSecret();
  await store.db
    .insertInto('tokens')
    .values({ id: newId('at'), token_hash: hashToken(secret), kind: 'site-admin', organization_id: null, team_id: null, description: GENERATED_ADMIN, created_at: now(), expired_at: null })
    .execute();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'admin-token'), `${secret}\n`, { mode: 0o600 });
  return secret;
}
