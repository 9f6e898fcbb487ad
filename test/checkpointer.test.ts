import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { migrate, openStore, sqliteFile, type Store } from '../src/db/connect.js';
import { createTestStore } from './support/store.js';

/** Enough rows to take the write-ahead log well past SQLite's own checkpoint threshold (1,000 pages). */
async function writeManyPages(store: Store): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const padding = 'x'.repeat(2000);
  for (let batch = 0; batch < 20; batch++) {
    const rows = Array.from({ length: 100 }, (_, i) => {
      const name = `org-${batch}-${i}`;
      return {
        id: name,
        name,
        email: `${padding}@example.com`,
        settings: '{}',
        search_name: name,
        search_email: name,
        user_tokens_enabled: true,
        created_at: at,
      };
    });
    await store.db.insertInto('organizations').values(rows).execute();
  }
}

async function autocheckpointPages(store: Store): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(store.db);
  return Number(rows[0]!.wal_autocheckpoint);
}

/** How SQLite's write-ahead log reaches the database file: a server's connection leaves it to a thread of its own. */
describe('checkpoints of the SQLite write-ahead log', { skip: process.env.TEST_DATABASE_URL !== undefined }, () => {
  it('a server store never checkpoints in its own connection, and its thread copies the log into the database file', async () => {
    const testStore = await createTestStore();
    const store = await openStore({ ...testStore, checkpointInBackground: true });
    try {
      await migrate(store);
      assert.equal(await autocheckpointPages(store), 0);
      const file = sqliteFile(testStore.dataDir);
      // Let the thread copy what migrations wrote, so that what follows is measured alone.
      await sleep(500);
      const before = fs.statSync(file).size;
      await writeManyPages(store);
      // A checkpoint that runs while the rows are being written copies only part of them: wait for all.
      const grown = () => fs.statSync(file).size > before + 2_000_000;
      const deadline = Date.now() + 10_000;
      while (!grown() && Date.now() < deadline) await sleep(50);
      assert.ok(grown(), `the database file grew from ${before} to ${fs.statSync(file).size} bytes`);
    } finally {
      await store.close();
      await testStore.dispose();
    }
  });

  it('any other store checkpoints in its own connection, as SQLite does by default', async () => {
    const testStore = await createTestStore();
    const store = await openStore(testStore);
    try {
      assert.equal(await autocheckpointPages(store), 1000);
    } finally {
      await store.close();
      await testStore.dispose();
    }
  });
});
