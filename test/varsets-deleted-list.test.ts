import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { pageOfDeletedSets } from '../src/varsets/versions/store.js';
import { TestApp } from './support/app.js';
import { organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { organizationId } from './support/factories/audit.js';
import { createVarset } from './support/factories/varsets.js';
import { errorOf, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** An organization's deleted sets, each as its deletion, for those who may restore them. */

describe(`listing an organization's deleted sets (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  const ids: Record<string, string> = {};
  const deleted = (token?: string, query = '') =>
    t.get(`/api/v2/organizations/${org}/deleted-varsets${query}`, token === undefined ? {} : { token });
  const names = (res: { body: any }): string[] => res.body.data.map((v: any) => v.attributes['varset-name']);
  const remove = async (name: string) => expectStatus(await t.delete(`/api/v2/varsets/${ids[name]}`), 204);
  async function restore(name: string) {
    const versions = await t.get(`/api/v2/varsets/${ids[name]}/versions`);
    expectStatus(versions, 200);
    const before = versions.body.data[1];
    expectStatus(
      await t.post(`/api/v2/varsets/${ids[name]}/actions/rollback`, {
        data: { type: 'varset-versions', id: before.id },
      }),
      200,
    );
  }

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    for (const name of ['kept', 'gone-1', 'gone-2', 'back', 'twice'])
      ids[name] = (await createVarset(t, org, { attributes: { name }, vars: [{ key: 'k', value: name }] })).id;
    await remove('gone-1');
    await remove('back');
    await restore('back');
    await remove('twice');
    await restore('twice');
    await remove('gone-2');
    await remove('twice');
  });
  after(() => t.close());

  it('lists each set deleted and not restored once, newest deletion first, with its deletion version', async () => {
    const res = await deleted();
    expectStatus(res, 200);
    assert.deepEqual(names(res), ['twice', 'gone-2', 'gone-1']);
    assert.equal(res.body.meta.pagination['total-count'], 3);
    const twice = res.body.data[0];
    assert.equal(twice.type, 'varset-versions');
    assert.equal(twice.attributes.action, 'delete');
    assert.equal(twice.attributes.number, 4);
    assert.equal(twice.relationships.varset.data.id, ids.twice);
    const paged = await deleted(undefined, '?page%5Bsize%5D=2&page%5Bnumber%5D=2');
    assert.deepEqual(names(paged), ['gone-1']);
    assert.equal(paged.body.meta.pagination['total-pages'], 2);
  });

  it('drops a set from the list once it is restored', async () => {
    await restore('gone-2');
    assert.deepEqual(names(await deleted()), ['twice', 'gone-1']);
    await remove('gone-2');
    assert.deepEqual(names(await deleted()), ['gone-2', 'twice', 'gone-1']);
  });

  it('answers the owners, the organization token and the site administrator; a 404 to other teams', async () => {
    const owners = await teamToken(t, await ownersTeam(t, org));
    assert.equal(names(await deleted(owners)).length, 3);
    assert.equal(names(await deleted(await organizationToken(t, org))).length, 3);
    const managers = await teamWithToken(t, org, { 'organization-access': { 'manage-workspaces': true } });
    expectStatus(await deleted(managers.token), 404);
    expectStatus(await t.get(`/api/v2/organizations/no-such-org/deleted-varsets`), 404);
  });

  it('takes only page[…]: another parameter is a 400', async () => {
    const res = await deleted(undefined, '?filter%5Bname%5D=x');
    expectStatus(res, 400);
    assert.equal(errorOf(res).source?.parameter, 'filter[name]');
  });

  it('reads the deletions from their index, not every version of the organization', async () => {
    const nodes: RootOperationNode[] = [];
    const capture: KyselyPlugin = {
      transformQuery: (args) => (nodes.push(args.node), args.node),
      transformResult: (args) => Promise.resolve(args.result),
    };
    const db = t.store.db.withPlugin(capture);
    const { total } = await pageOfDeletedSets(db, await organizationId(t, org), { number: 1, size: 20 });
    assert.equal(total, 3);
    const last = nodes.at(-1)!;
    const compiled = db.getExecutor().compileQuery(last, { queryId: 'plan' });
    // PostgreSQL would read a table this small whole: told not to where it can help it, it shows which index answers.
    const plan = await t.store.db.transaction().execute(async (trx) => {
      if (storeKind === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const explain = storeKind === 'sqlite' ? 'explain query plan ' : 'explain ';
      const { rows } = await trx.executeQuery(CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]));
      return rows.map((row: any) => (storeKind === 'sqlite' ? row.detail : row['QUERY PLAN'])).join('\n');
    });
    assert.match(plan, /varset_versions_deletions/, plan);
  });
});
