import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { appendAtCommit, ConcurrentChangeError, transaction, type Trx } from '../src/db/transaction.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** An organization's row, every value its own, so that a value landing in another's place shows. */
/** What every transaction sends besides its work: begin, commit, and the schema guard's read (src/db/schema-guard.ts). */
const FRAMING = /^(begin|commit)\b|^select name from kysely_migration where name > /i;

const organization = (name: string) => ({
  id: `org-${name}`,
  name,
  email: `${name}@example.com`,
  settings: `{"of":"${name}"}`,
  search_name: `search-${name}`,
  search_email: `search-${name}@example.com`,
  user_tokens_enabled: name.length % 2 === 0,
  created_at: new Date(Date.UTC(2026, 0, name.length)).toISOString(),
});

describe(`rows held back to the end of a transaction (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;
  let statements: string[] = [];

  before(async () => {
    testStore = await createTestStore();
    store = await openStore({
      dataDir: testStore.dataDir,
      databaseUrl: testStore.databaseUrl,
      onStatement: (sql) => statements.push(sql),
    });
    await migrate(store);
  });
  after(async () => {
    await store.close();
    await testStore.dispose();
  });
  beforeEach(async () => {
    await store.db.deleteFrom('organizations').execute();
    statements = [];
  });

  const names = async () =>
    (await store.db.selectFrom('organizations').select('name').orderBy('name').execute()).map((row) => row.name);

  it('sends them after the work, before commit, each value in its place: in one statement on PostgreSQL', async () => {
    const rows = ['acme', 'globex', 'initech'].map(organization);
    const seenByWork: string[][] = [];
    await transaction(store, async (trx) => {
      await trx.insertInto('organizations').values(organization('hooli')).execute();
      for (const row of rows) appendAtCommit(trx, trx.insertInto('organizations').values(row).compile());
      appendAtCommit(
        trx,
        trx.updateTable('organizations').set({ email: 'changed@example.com' }).where('name', '=', 'hooli').compile(),
      );
      seenByWork.push((await trx.selectFrom('organizations').select('name').execute()).map((row) => row.name));
    });
    const sent = statements.filter((sql) => !FRAMING.test(sql));
    assert.deepEqual(seenByWork, [['hooli']], 'the work does not see what it holds back');
    const written = await store.db.selectFrom('organizations').selectAll().orderBy('name').execute();
    assert.deepEqual(
      written.map((row) => ({ ...row, user_tokens_enabled: Boolean(row.user_tokens_enabled) })),
      [...rows, { ...organization('hooli'), email: 'changed@example.com' }].sort((a, b) =>
        a.name.localeCompare(b.name),
      ),
    );
    if (storeKind === 'postgres') {
      assert.equal(sent.length, 3, sent.join('\n'));
      assert.match(
        sent[2]!,
        /^with appended_0 as \(insert into "organizations".*\), appended_2 as \(insert into "organizations".*\) update "organizations"/,
      );
    } else {
      assert.equal(sent.length, 6, sent.join('\n'));
    }
  });

  it('sends more than a statement may carry in as few statements as it takes', async () => {
    // 8,200 rows of 8 parameters: more than PostgreSQL's 65,535 in one statement.
    const names = Array.from({ length: 8_200 }, (_, i) => `bulk-${String(i).padStart(5, '0')}`);
    await transaction(store, async (trx) => {
      for (const name of names)
        appendAtCommit(trx, trx.insertInto('organizations').values(organization(name)).compile());
    });
    const sent = statements.filter((sql) => !FRAMING.test(sql));
    assert.equal(sent.length, storeKind === 'postgres' ? 2 : names.length);
    const written = await store.db.selectFrom('organizations').select(['name', 'email']).orderBy('name').execute();
    assert.deepEqual(
      written,
      names.map((name) => ({ name, email: `${name}@example.com` })),
    );
  });

  it('writes none of them when the work fails', async () => {
    await assert.rejects(
      transaction(store, async (trx) => {
        appendAtCommit(trx, trx.insertInto('organizations').values(organization('acme')).compile());
        await trx.insertInto('organizations').values(organization('globex')).execute();
        throw new Error('the work fails');
      }),
      /the work fails/,
    );
    assert.deepEqual(await names(), []);
  });

  it('takes the whole transaction back when one of them is refused', async () => {
    await store.db.insertInto('organizations').values(organization('acme')).execute();
    await assert.rejects(
      transaction(store, async (trx) => {
        await trx.insertInto('organizations').values(organization('globex')).execute();
        appendAtCommit(trx, trx.insertInto('organizations').values(organization('initech')).compile());
        appendAtCommit(trx, trx.insertInto('organizations').values(organization('acme')).compile());
      }),
      ConcurrentChangeError,
    );
    assert.deepEqual(await names(), ['acme']);
  });

  it('refuses a row outside the work of a transaction, or after it', async () => {
    let ended: Trx | undefined;
    await transaction(store, async (trx) => {
      ended = trx;
    });
    assert.throws(() => {
      appendAtCommit(ended!, ended!.insertInto('organizations').values(organization('acme')).compile());
    }, /not in a transaction/);
    await assert.rejects(
      store.db.transaction().execute(async (trx) => {
        appendAtCommit(trx, trx.insertInto('organizations').values(organization('acme')).compile());
      }),
      /not in a transaction/,
    );
    assert.deepEqual(await names(), []);
  });

  it('refuses what is not a plain insert or update of parameters', async () => {
    await transaction(store, async (trx) => {
      for (const query of [
        trx.selectFrom('organizations').select('id').compile(),
        trx.insertInto('organizations').values(organization('acme')).returning('id').compile(),
        trx.updateTable('organizations').set({ email: 'e@example.com' }).returning('id').compile(),
        trx.deleteFrom('organizations').compile(),
      ]) {
        assert.throws(() => {
          appendAtCommit(trx, query);
        }, /not a plain insert or update/);
      }
    });
    assert.deepEqual(await names(), []);
  });
});
