import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/connect.js';
import { insertOldSiteAdminToken, storeKind, withStoreMigratedTo } from './support/store.js';

/** A store created before teams existed keeps its tokens and gains an owners team per organization. */
describe(`access migration on an existing store (${storeKind})`, () => {
  it('keeps tokens, adds owners teams, and the upgraded store serves teams', async () => {
    await withStoreMigratedTo('0002_runs', async (store) => {
      const at = '2024-01-01T00:00:00.000Z';
      await (store.db as Kysely<any>)
        .insertInto('organizations')
        .values({ id: 'org-old', name: 'old', email: 'O@Example.com', created_at: at })
        .execute();
      await (store.db as Kysely<any>)
        .insertInto('projects')
        .values({
          id: 'prj-old',
          organization_id: 'org-old',
          name: 'Default Project',
          description: '',
          is_default: true,
          created_at: at,
        })
        .execute();
      await insertOldSiteAdminToken(store.db, at);

      await migrate(store);
      const owners = await store.db.selectFrom('teams').selectAll().where('organization_id', '=', 'org-old').execute();
      assert.equal(owners.length, 1);
      assert.equal(owners[0]!.name, 'owners');
      assert.equal(owners[0]!.is_owners, true);

      const app = await buildApp({ store });
      const res = await app.inject({
        method: 'GET',
        url: '/api/v2/organizations/old/teams',
        headers: { authorization: 'Bearer old-admin-secret' },
      });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(
        JSON.parse(res.body).data.map((t: { attributes: { name: string } }) => t.attributes.name),
        ['owners'],
      );
      // Migration 0011: the organization gains HCP Terraform's default settings, is found by q, and its default project follows its execution mode.
      const found = await app.inject({
        method: 'GET',
        url: '/api/v2/organizations?q=o%40EXAMPLE&include=default-project',
        headers: { authorization: 'Bearer old-admin-secret' },
      });
      assert.equal(found.statusCode, 200);
      const document = JSON.parse(found.body);
      assert.deepEqual(
        document.data.map((o: { id: string }) => o.id),
        ['old'],
      );
      assert.equal(document.data[0].attributes['default-execution-mode'], 'remote');
      assert.equal(document.data[0].attributes['speculative-plan-management-enabled'], true);
      assert.equal(document.data[0].relationships['default-project'].data.id, 'prj-old');
      assert.equal(document.included[0].attributes['default-execution-mode'], 'remote');
      assert.equal(document.included[0].attributes['setting-overwrites']['default-execution-mode'], false);
      await app.close();
    });
  });
});
