import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { compiledOnce } from '../src/db/compiled-once.js';
import { createTestStore, storeKind, type TestStore } from './helpers.js';

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
      .values(['acme', 'globex', 'initech'].map((name) => ({ id: `org-${name}`, name, email: `${name}@example.com`, settings: '{}', search_name: name, search_email: `${name}@example.com`, user_tokens_enabled: true, created_at: created })))
      .execute();
  });
  after(async () => {
    await store.close();
    await testStore.dispose();
  });

  it('runs with each call’s arguments, keeping the values written in the query', async () => {
    const named = compiledOnce((db, first: string, second: string) =>
      db.selectFrom('organizations').select('name').where('name', 'in', [first, second]).where('name', '<>', 'initech').orderBy('name'),
    );
    assert.deepEqual(await named(store.db, 'acme', 'globex'), [{ name: 'acme' }, { name: 'globex' }]);
    assert.deepEqual(await named(store.db, 'globex', 'nobody'), [{ name: 'globex' }]);
    assert.deepEqual(await named(store.db, 'initech', 'acme'), [{ name: 'acme' }]);
  });

  it('takes numbers where the query uses them whole, such as a page’s limit and offset', async () => {
    const page = compiledOnce((db, size: number, offset: number) => db.selectFrom('organizations').select('name').orderBy('name').limit(size).offset(offset));
    assert.deepEqual(await page(store.db, 2, 0), [{ name: 'acme' }, { name: 'globex' }]);
    assert.deepEqual(await page(store.db, 2, 1), [{ name: 'globex' }, { name: 'initech' }]);
    assert.deepEqual(await page(store.db, 1, 2), [{ name: 'initech' }]);
  });

  it('refuses an argument used inside a value, or not used at all', async () => {
    const inside = compiledOnce((db, part: string) => db.selectFrom('organizations').select('name').where('name', 'like', `%${part}%`));
    await assert.rejects(inside(store.db, 'cm'), /used inside a value/);
    const unused = compiledOnce((db, _name: string) => db.selectFrom('organizations').select('name'));
    await assert.rejects(unused(store.db, 'acme'), /argument 0 is not a parameter/);
  });
});
