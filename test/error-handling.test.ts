import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { storeKind } from './support/store.js';

/** What reaches the error handler when a service lets a store error through. */
describe(`error translation (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
    const fail = (code: string, message: string) => {
      throw Object.assign(new Error(message), { code });
    };
    t.app.get('/test/unique', async () =>
      fail(
        storeKind === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_UNIQUE',
        'duplicate key value violates unique constraint "secret_index"',
      ),
    );
    t.app.get('/test/foreign-key', async () =>
      fail(
        storeKind === 'postgres' ? '23503' : 'SQLITE_CONSTRAINT_FOREIGNKEY',
        'insert violates foreign key constraint "fk"',
      ),
    );
    t.app.get('/test/unexpected', async () => fail('EWHATEVER', 'connection string postgres://user:hunter2@db'));
  });
  after(async () => t.close());

  it('answers a lost race on a unique index or a foreign key with 409, naming no internals', async () => {
    for (const path of ['/test/unique', '/test/foreign-key']) {
      const res = await t.get(path);
      assert.equal(res.status, 409, path);
      assert.deepEqual(res.body, {
        errors: [
          { status: '409', title: 'conflict', detail: 'the request conflicts with a concurrent change; try again' },
        ],
      });
    }
  });

  it('answers anything else with a bare 500 that carries no message', async () => {
    const res = await t.get('/test/unexpected');
    assert.equal(res.status, 500);
    assert.deepEqual(res.body, { errors: [{ status: '500', title: 'internal server error' }] });
  });
});
