import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { listArrangedVarsets } from '../src/varsets/arranged-list-store.js';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, teamWithToken } from './support/factories/access.js';
import { organizationId } from './support/factories/audit.js';
import { insertManySets } from './support/factories/many-sets.js';
import { createVarset } from './support/factories/varsets.js';
import { errorOf, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * "Which sets define DB_PASSWORD?": `filter[var][key]` of an organization's list, in an
 * organization of 10,000 sets, answered from the index of variables by key.
 */

const SETS = 10_000;
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe(`searching an organization's sets by variable key (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let orgId: string;
  let workspace: string;
  const names = (res: { body: any }): string[] => res.body.data.map((s: any) => s.attributes.name);
  const list = (params: Record<string, string>, token?: string) =>
    t.get(`/api/v2/organizations/${org}/varsets?${q(params)}`, token === undefined ? {} : { token });

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    orgId = await organizationId(t, org);
    workspace = await t.createWorkspace(org, { name: 'payments' });
    // Every set defines shared_N (200 sets for each N) and one of 1,000 env keys (10 sets each).
    await insertManySets(t.store, orgId, SETS, (i) => [
      { key: `shared_${i % 50}`, category: 'terraform' },
      { key: `ENV_${i % 1000}`, category: 'env' },
    ]);
    // Through the API: the sets that define DB_PASSWORD, one of them in both categories, one assigned to the workspace.
    await createVarset(t, org, { attributes: { name: 'db-a' }, vars: [{ key: 'DB_PASSWORD', category: 'env' }] });
    await createVarset(t, org, {
      attributes: { name: 'db-b' },
      vars: [
        { key: 'DB_PASSWORD', category: 'env' },
        { key: 'DB_PASSWORD', category: 'terraform' },
      ],
    });
    await createVarset(t, org, {
      attributes: { name: 'db-c' },
      workspaces: [workspace],
      vars: [{ key: 'DB_PASSWORD', category: 'terraform', sensitive: true, value: 'secret' }],
    });
    await createVarset(t, org, { attributes: { name: 'db-lower' }, vars: [{ key: 'db_password', category: 'env' }] });
    await createVarset(t, org, { attributes: { name: 'db-global', global: true }, vars: [{ key: 'DB_PASSWORD' }] });
    if (storeKind === 'postgres') await t.store.db.executeQuery(CompiledQuery.raw('analyze'));
  });
  after(() => t.close());

  it('lists the sets defining exactly that key, each once, in name order, case-sensitive', async () => {
    const res = await list({ 'filter[var][key]': 'DB_PASSWORD' });
    expectStatus(res, 200);
    assert.deepEqual(names(res), ['db-a', 'db-b', 'db-c', 'db-global']);
    assert.equal(res.body.meta.pagination['total-count'], 4);
    assert.deepEqual(names(await list({ 'filter[var][key]': 'db_password' })), ['db-lower']);
    // Exact: no prefix or substring match.
    assert.deepEqual(names(await list({ 'filter[var][key]': 'DB_PASS' })), []);
    assert.deepEqual(names(await list({ 'filter[var][key]': 'ENV_7' })).length, 10);
  });

  it('pages through the matches of 10,000 sets and combines with the other filters, q and sort', async () => {
    const page = await list({ 'filter[var][key]': 'shared_7', 'page[size]': '20', 'page[number]': '3' });
    expectStatus(page, 200);
    assert.equal(page.body.meta.pagination['total-count'], 200);
    assert.equal(page.body.meta.pagination['total-pages'], 10);
    // Sets 7, 57, 107, … : the third page of 20 starts with the 41st, set 2007.
    assert.equal(names(page)[0], 'bulk-02007');
    assert.match(page.body.links.next, /filter%5Bvar%5D%5Bkey%5D=shared_7/);
    const global = await list({ 'filter[var][key]': 'DB_PASSWORD', 'filter[global]': 'true' });
    assert.deepEqual(names(global), ['db-global']);
    assert.deepEqual(names(await list({ 'filter[var][key]': 'DB_PASSWORD', q: 'B-B' })), ['db-b']);
    assert.deepEqual(names(await list({ 'filter[var][key]': 'DB_PASSWORD', sort: '-name' })), [
      'db-global',
      'db-c',
      'db-b',
      'db-a',
    ]);
    // Empty means no filter, as for the other filters.
    const all = await list({ 'filter[var][key]': '' });
    assert.equal(all.body.meta.pagination['total-count'], SETS + 5);
  });

  it('shows a team only the sets it may read; an organization token sees them all', async () => {
    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, workspace, { access: 'read' });
    assert.deepEqual(names(await list({ 'filter[var][key]': 'DB_PASSWORD' }, reader.token)), ['db-c', 'db-global']);
    const organization = await organizationToken(t, org);
    assert.equal(names(await list({ 'filter[var][key]': 'DB_PASSWORD' }, organization)).length, 4);
  });

  it('rejects a misspelt or repeated parameter with a 400 naming it', async () => {
    const misspelt = await list({ 'filter[var][name]': 'DB_PASSWORD' });
    expectStatus(misspelt, 400);
    assert.equal(errorOf(misspelt).source?.parameter, 'filter[var][name]');
    const twice = await t.get(`/api/v2/organizations/${org}/varsets?filter[var][key]=A&filter[var][key]=B`);
    expectStatus(twice, 400);
  });

  it('is answered from the index of variables by key, not by reading every set', async () => {
    const nodes: RootOperationNode[] = [];
    const capture: KyselyPlugin = {
      transformQuery: (args) => (nodes.push(args.node), args.node),
      transformResult: (args) => Promise.resolve(args.result),
    };
    const db = t.store.db.withPlugin(capture);
    const { total } = await listArrangedVarsets(
      db,
      { kind: 'organization', organizationId: orgId, readable: 'all' },
      undefined,
      { filters: { varKey: 'DB_PASSWORD' }, sort: undefined },
      { number: 1, size: 20 },
      false,
    );
    assert.equal(total, 4);
    assert.ok(nodes.length > 0);
    for (const node of nodes) {
      const compiled = db.getExecutor().compileQuery(node, { queryId: 'plan' });
      const explain = storeKind === 'sqlite' ? 'explain query plan ' : 'explain ';
      const { rows } = await t.store.db.executeQuery(
        CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
      );
      const plan = rows.map((row: any) => (storeKind === 'sqlite' ? row.detail : row['QUERY PLAN'])).join('\n');
      assert.match(plan, /varset_variables_key_idx/, plan);
      // The organization's sets are never walked: a set is only ever found by its id.
      if (storeKind === 'sqlite') {
        for (const line of plan.split('\n').filter((l) => /^(SCAN|SEARCH) (varsets|owner)\b/.test(l)))
          assert.match(line, /^SEARCH \w+ USING (COVERING )?INDEX sqlite_autoindex_varsets_1 \(id=\?\)$/, plan);
      } else {
        assert.doesNotMatch(plan, /Seq Scan on varsets|Seq Scan on varset_variables|varsets_organization/, plan);
      }
    }
  });
});
