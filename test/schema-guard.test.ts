import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { KNOWN_SCHEMA } from '../src/db/schema-guard.js';
import { runVarsetd, startServerProcess, varsetdEnv } from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { TestApp } from './support/app.js';
import { createTestStore, storeKind } from './support/store.js';

/** What a newer varsetd leaves in the migrations table: a migration this build does not know. */
async function addMigration(db: Store['db'], name: string): Promise<void> {
  await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(db);
}

async function removeMigration(db: Store['db'], name: string): Promise<void> {
  await sql`delete from kysely_migration where name = ${name}`.execute(db);
}

const organization = (name: string) => ({
  data: { type: 'organizations', attributes: { name, email: 'ops@schema.test' } },
});

describe(`a schema this build does not know (${storeKind})`, () => {
  it('refuses to start, in one line naming the store’s schema and the one this build knows', async () => {
    const testStore = await createTestStore();
    try {
      const store = await openStore(testStore);
      try {
        await migrate(store);
        await addMigration(store.db, '0900_from_a_newer_varsetd');
      } finally {
        await store.close();
      }
      for (const command of ['serve', 'migrate']) {
        const { code, stderr } = await runVarsetd(
          [command],
          varsetdEnv(testStore, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }),
        );
        assert.equal(code, 1, stderr);
        const lines = stderr.trim().split('\n');
        assert.equal(lines.length, 1, stderr);
        assert.equal(
          lines[0],
          `varsetd: failed to start: the store's schema is 0900_from_a_newer_varsetd, newer than this varsetd knows (${KNOWN_SCHEMA}): start a varsetd that knows it (see docs/deployment.md#upgrading)`,
        );
      }
    } finally {
      await testStore.dispose();
    }
  });

  it('starts and serves on a store with only newer expand migrations', async () => {
    const testStore = await createTestStore();
    try {
      const store = await openStore(testStore);
      try {
        await migrate(store);
        await addMigration(store.db, '0900_from_a_newer_varsetd.expand');
      } finally {
        await store.close();
      }
      const server = await startServerProcess(varsetdEnv(testStore, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
      try {
        assert.equal(server.summary.appliedMigrations.length, 0);
        assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
        const created = await fetch(`${server.url}/api/v2/organizations`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify(organization('written-beside-an-expand')),
        });
        assert.equal(created.status, 201);
      } finally {
        await server.stop();
      }
    } finally {
      await testStore.dispose();
    }
  });

  it('while serving: not ready, and writes answered 503 with Retry-After, until the schema is one it knows again', async () => {
    const t = await TestApp.start();
    try {
      assert.equal((await t.post('/api/v2/organizations', organization('before'))).status, 201);
      await addMigration(t.store.db, '0900_from_a_newer_varsetd');

      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'unavailable', checks: { migrations: 'newer' } });

      const write = await t.app.inject({
        method: 'POST',
        url: '/api/v2/organizations',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/vnd.api+json' },
        payload: organization('after'),
      });
      assert.equal(write.statusCode, 503, write.body);
      assert.match(String(write.headers['retry-after']), /^\d+$/);
      assert.deepEqual(write.json().errors, [
        {
          status: '503',
          title: 'service unavailable',
          detail: 'the store was upgraded by a newer varsetd; try again later',
        },
      ]);
      assert.equal((await t.get('/api/v2/organizations/after')).status, 404, 'the refused write made nothing');
      assert.equal((await t.get('/api/v2/organizations/before')).status, 200, 'reads are served');

      // A newer migration that older servers may write beside (expand) stops nothing.
      await removeMigration(t.store.db, '0900_from_a_newer_varsetd');
      await addMigration(t.store.db, '0900_from_a_newer_varsetd.expand');
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      assert.equal((await t.post('/api/v2/organizations', organization('after'))).status, 201);
    } finally {
      await t.close();
    }
  });
});
