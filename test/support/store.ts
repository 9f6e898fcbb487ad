import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Migrator, type Kysely } from 'kysely';
import { hashToken } from '../../src/auth/tokens.js';
import { openStore, type Store } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { randomAlphanumeric } from '../../src/common/ids.js';

/**
 * Test stores: SQLite in a temporary folder, or, when TEST_DATABASE_URL is set, a fresh
 * database created on that PostgreSQL server and dropped afterwards.
 */
export const storeKind = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

export interface TestStore {
  databaseUrl: string | undefined;
  dataDir: string;
  dispose(): Promise<void>;
}

export async function createTestStore(): Promise<TestStore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-test-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return {
      databaseUrl: undefined,
      dataDir,
      dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `varsetd_test_${randomAlphanumeric(12).toLowerCase()}`;
  await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    dataDir,
    dispose: async () => {
      await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh store migrated only up to `migration`, as an older varsetd left it, for `work`; removed afterwards. */
export async function withStoreMigratedTo(migration: string, work: (store: Store) => Promise<void>): Promise<void> {
  const testStore = await createTestStore();
  const store = await openStore(testStore);
  try {
    const { error } = await new Migrator({
      db: store.db,
      provider: { getMigrations: async () => migrations },
    }).migrateTo(migration);
    if (error) throw error instanceof Error ? error : new Error(String(error));
    await work(store);
  } finally {
    await store.close();
    await testStore.dispose();
  }
}

async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The site administrator's token (`old-admin-secret`) as the first versions wrote it, for the
 * tests of migrations that must keep it working (a store migrated to 0002 or later).
 */
export async function insertOldSiteAdminToken(db: Store['db'], at: string): Promise<void> {
  await (db as Kysely<any>)
    .insertInto('tokens')
    .values({
      id: 'at-old',
      token_hash: hashToken('old-admin-secret'),
      kind: 'site-admin',
      organization_id: null,
      team_id: null,
      description: 'kept',
      created_at: at,
      expired_at: null,
    })
    .execute();
}
