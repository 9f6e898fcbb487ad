import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { compiledOnce } from '../src/db/compiled-once.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

describe(`queries compiled once (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;

  before(async () => {
    testStore = await createTestStore();
    store = await openStore({ dataDir: testStore.dataDir, databaseUrl: testStore.databaseUrl });
    await migrate(store);
    const created = '2026-01-01T00:00:00.000Z';
    await store.db
      .insertInto('organizations')
      .values(
        ['acme', 'globex', 'initech'].map((name) => ({
          id: `org-${name}`,
          name,
          email: `${name}@example.com`,
          settings: '{}',
          search_name: name,
          search_email: `${name}@example.com`,
          user_tokens_enabled: true,
          created_at: created,
        })),
      )
      .execute();
  });
  after(async () => {
    await store.close();
    await testStore.dispose();
  });

  it('runs with each call’s arguments, keeping the values written in the query', async () => {
    const named = compiledOnce((db, first: string, second: string) =>
      db
        .selectFrom('organizations')
        .select('name')
        .where('name', 'in', [first, second])
        .where('name', '<>', 'initech')
        .orderBy('name'),
    );
    assert.deepEqual(await named(store.db, 'acme', 'globex'), [{ name: 'acme' }, { name: 'globex' }]);
    assert.deepEqual(await named(store.db, 'globex', 'nobody'), [{ name: 'globex' }]);
    assert.deepEqual(await named(store.db, 'initech', 'acme'), [{ name: 'acme' }]);
  });

  it('takes numbers where the query uses them whole, such as a page’s limit and offset', async () => {
    const page = compiledOnce((db, size: number, offset: number) =>
      db.selectFrom('organizations').select('name').orderBy('name').limit(size).offset(offset),
    );
    assert.deepEqual(await page(store.db, 2, 0), [{ name: 'acme' }, { name: 'globex' }]);
    assert.deepEqual(await page(store.db, 2, 1), [{ name: 'globex' }, { name: 'initech' }]);
    assert.deepEqual(await page(store.db, 1, 2), [{ name: 'initech' }]);
  });

  it('takes lists, each member a parameter, compiled once for each length', async () => {
    const named = compiledOnce((db, names: string[]) =>
      db.selectFrom('organizations').select('name').where('name', 'in', names).orderBy('name'),
    );
    assert.deepEqual(await named(store.db, ['initech']), [{ name: 'initech' }]);
    assert.deepEqual(await named(store.db, ['globex', 'acme']), [{ name: 'acme' }, { name: 'globex' }]);
    assert.deepEqual(await named(store.db, ['acme']), [{ name: 'acme' }]);
    assert.deepEqual(await named(store.db, ['nobody', 'initech', 'globex']), [{ name: 'globex' }, { name: 'initech' }]);

    const created = '2026-01-02T00:00:00.000Z';
    const insert = compiledOnce((db, ids: string[], names: string[], userTokens: boolean[]) =>
      db.insertInto('organizations').values(
        names.map((name, i) => ({
          id: ids[i]!,
          name,
          email: 'it@example.com',
          settings: '{}',
          search_name: name,
          search_email: 'it@example.com',
          user_tokens_enabled: userTokens[i]!,
          created_at: created,
        })),
      ),
    );
    await insert(store.db, ['org-hooli', 'org-umbrella'], ['hooli', 'umbrella'], [true, false]);
    await insert(store.db, ['org-vandelay'], ['vandelay'], [false]);
    const rows = await store.db
      .selectFrom('organizations')
      .select(['name', 'user_tokens_enabled'])
      .where('created_at', '=', created)
      .orderBy('name')
      .execute();
    assert.deepEqual(rows, [
      { name: 'hooli', user_tokens_enabled: true },
      { name: 'umbrella', user_tokens_enabled: false },
      { name: 'vandelay', user_tokens_enabled: false },
    ]);
  });

  it('refuses an argument used inside a value, or not used at all', async () => {
    const inside = compiledOnce((db, part: string) =>
      db.selectFrom('organizations').select('name').where('name', 'like', `%${part}%`),
    );
    await assert.rejects(inside(store.db, 'cm'), /used inside a value/);
    const unused = compiledOnce((db, _name: string) => db.selectFrom('organizations').select('name'));
    await assert.rejects(unused(store.db, 'acme'), /argument 0 is not a parameter/);
    const unusedMember = compiledOnce((db, names: string[]) =>
      db.selectFrom('organizations').select('name').where('name', '=', names[0]!),
    );
    await assert.rejects(unusedMember(store.db, ['acme', 'globex']), /argument 0 is not a parameter/);
  });
});
