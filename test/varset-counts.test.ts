import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { migrate, type Store } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { expectStatus } from './support/requests.js';
import { storeKind, withStoreMigratedTo } from './support/store.js';

/** The counts of an organization's sets and global sets that the database keeps (migration 0016), against the sets themselves. */
async function countsOf(store: Store, organizationName: string) {
  const organization = await store.db
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', organizationName)
    .executeTakeFirstOrThrow();
  const kept = await store.db
    .selectFrom('organization_versions')
    .select(['varset_count', 'global_varset_count'])
    .where('organization_id', '=', organization.id)
    .executeTakeFirstOrThrow();
  const counted = await store.db
    .selectFrom('varsets')
    // Not named `global`: a result column of that name is read as a boolean (src/db/boolean-columns.ts).
    .select((eb) => [eb.fn.countAll<number>().as('all'), eb.fn.sum<number | null>('global').as('global_sets')])
    .where('organization_id', '=', organization.id)
    .executeTakeFirstOrThrow();
  return {
    kept: { all: Number(kept.varset_count), global: Number(kept.global_varset_count) },
    counted: { all: Number(counted.all), global: Number(counted.global_sets ?? 0) },
  };
}

describe(`the counts of an organization's sets (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let projectId: string;
  let workspaceId: string;

  before(async () => {
    t = await TestApp.start({ responseCacheSize: 0 });
    org = await t.createOrganization();
    projectId = await t.createProject(org);
    workspaceId = await t.createWorkspace(org, { projectId });
  });
  after(async () => t.close());

  const createSet = async (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => {
    const res = await t.post(`/api/v2/organizations/${org}/varsets`, {
      data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) },
    });
    expectStatus(res, 200);
    return res.body.data.id as string;
  };
  const totalOf = async (url: string) => {
    const res = await t.get(url);
    expectStatus(res, 200);
    return res.body.meta.pagination['total-count'] as number;
  };

  /** The kept counts match the sets, and the lists' totals are made of them: all sets of the organization, the global ones and those assigned in the workspace's. */
  async function assertCounts(expected: { all: number; global: number }, assignedToWorkspace: number) {
    const { kept, counted } = await countsOf(t.store, org);
    assert.deepEqual(counted, expected);
    assert.deepEqual(kept, expected);
    assert.equal(await totalOf(`/api/v2/organizations/${org}/varsets?page%5Bsize%5D=1`), expected.all);
    assert.equal(
      await totalOf(`/api/v2/workspaces/${workspaceId}/varsets?page%5Bsize%5D=1`),
      expected.global + assignedToWorkspace,
    );
    assert.equal(
      await totalOf(`/api/v2/projects/${projectId}/varsets?page%5Bsize%5D=1`),
      expected.global + assignedToWorkspace,
    );
  }

  it('follow every write that creates, changes or deletes a set, and a project that takes its sets with it', async () => {
    await assertCounts({ all: 0, global: 0 }, 0);
    const first = await createSet({ name: 'first', global: true });
    const second = await createSet({ name: 'second', global: true });
    const plain = await createSet({ name: 'plain' });
    await assertCounts({ all: 3, global: 2 }, 0);

    // Owned by the project and applied to it: listed by the workspace and the project, never global.
    await createSet(
      { name: 'owned' },
      {
        parent: { data: { type: 'projects', id: projectId } },
        projects: { data: [{ type: 'projects', id: projectId }] },
      },
    );
    await assertCounts({ all: 4, global: 2 }, 1);

    expectStatus(
      await t.patch(`/api/v2/varsets/${plain}`, { data: { type: 'varsets', attributes: { global: true } } }),
      200,
    );
    await assertCounts({ all: 4, global: 3 }, 1);
    expectStatus(
      await t.patch(`/api/v2/varsets/${first}`, { data: { type: 'varsets', attributes: { global: false } } }),
      200,
    );
    await assertCounts({ all: 4, global: 2 }, 1);
    // An update that leaves the flag as it is, and one of other attributes, change nothing.
    expectStatus(
      await t.patch(`/api/v2/varsets/${second}`, {
        data: { type: 'varsets', attributes: { global: true, description: 'still global' } },
      }),
      200,
    );
    expectStatus(
      await t.post(`/api/v2/varsets/${second}/relationships/vars`, {
        data: { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'env' } },
      }),
      200,
    );
    await assertCounts({ all: 4, global: 2 }, 1);

    // A write refused by the global rule leaves the counts as they were.
    expectStatus(
      await t.post(`/api/v2/varsets/${first}/relationships/vars`, {
        data: { type: 'vars', attributes: { key: 'region', value: 'us', category: 'env' } },
      }),
      200,
    );
    expectStatus(
      await t.patch(`/api/v2/varsets/${first}`, { data: { type: 'varsets', attributes: { global: true } } }),
      422,
    );
    await assertCounts({ all: 4, global: 2 }, 1);

    expectStatus(await t.delete(`/api/v2/varsets/${second}`), 204);
    await assertCounts({ all: 3, global: 1 }, 1);
    expectStatus(await t.delete(`/api/v2/workspaces/${workspaceId}`), 204);
    expectStatus(await t.delete(`/api/v2/projects/${projectId}`), 204);
    projectId = await t.createProject(org);
    workspaceId = await t.createWorkspace(org, { projectId });
    await assertCounts({ all: 2, global: 1 }, 0);
  });

  it('are kept apart for each organization, and go with a deleted one', async () => {
    const other = await t.createOrganization();
    expectStatus(
      await t.post(`/api/v2/organizations/${other}/varsets`, {
        data: { type: 'varsets', attributes: { name: 'elsewhere', global: true } },
      }),
      200,
    );
    assert.deepEqual((await countsOf(t.store, other)).kept, { all: 1, global: 1 });
    const before = await countsOf(t.store, org);
    expectStatus(await t.delete(`/api/v2/organizations/${other}`), 204);
    assert.deepEqual(await countsOf(t.store, org), before);
    const left = await t.store.db.selectFrom('organization_versions').select('organization_id').execute();
    assert.equal(left.length, (await t.store.db.selectFrom('organizations').select('id').execute()).length);
  });
});

describe(`the counts of sets on a store migrated with sets in it (${storeKind})`, () => {
  it('are counted once by the migration', async () => {
    await withStoreMigratedTo('0015_credentials_version', async (store) => {
      const db = store.db as Kysely<any>;
      const at = '2024-01-01T00:00:00.000Z';
      for (const name of ['one', 'two'])
        await db
          .insertInto('organizations')
          .values({ id: `org-${name}`, name, email: `${name}@example.com`, created_at: at })
          .execute();
      const sets = [
        ['org-one', 1],
        ['org-one', 1],
        ['org-one', 0],
        ['org-two', 0],
      ] as const;
      for (const [i, [organizationId, global]] of sets.entries()) {
        await db
          .insertInto('varsets')
          .values({
            id: `varset-${i}`,
            organization_id: organizationId,
            name: `set-${i}`,
            search_name: `set-${i}`,
            description: '',
            global,
            priority: 0,
            created_at: at,
            updated_at: at,
          })
          .execute();
      }
      await migrate(store);
      assert.deepEqual((await countsOf(store, 'one')).kept, { all: 3, global: 2 });
      assert.deepEqual((await countsOf(store, 'two')).kept, { all: 1, global: 0 });
    });
  });
});
