import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestApp } from './support/app.js';
import { organizationToken } from './support/factories/access.js';
import { insertEvent, organizationId } from './support/factories/audit.js';
import { createProject, createWorkspace } from './support/factories/organizations.js';
import { createVar, createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/**
 * The organization's sets filtered by their flags and sorted, and the audit trail filtered by
 * type, action and who: over the whole organization, paged after filtering.
 */

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

describe(`filtering and sorting an organization's sets and its audit trail (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  const names = (res: { body: any }) => res.body.data.map((s: any) => s.attributes.name);

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    const project = await createProject(t, org, 'core');
    const workspaces = [await createWorkspace(t, org, { name: 'w1' }), await createWorkspace(t, org, { name: 'w2' })];
    // 25 plain sets sort before the global ones by name: the globals are all past the first page.
    for (let i = 0; i < 25; i++)
      await createVarset(t, org, { attributes: { name: `a-plain-${String(i).padStart(2, '0')}` } });
    for (let i = 0; i < 7; i++)
      await createVarset(t, org, { attributes: { name: `g-global-${i}`, global: true, priority: i < 2 } });
    const many = await createVarset(t, org, { attributes: { name: 'z-many' }, workspaces });
    for (const key of ['a', 'b', 'c']) await createVar(t, many.id, { key, value: '1', category: 'terraform' });
    await createVarset(t, org, { attributes: { name: 'z-owned' }, parent: { type: 'projects', id: project } });
  });
  after(() => t.close());

  const list = (params: Record<string, string>) => t.get(`/api/v2/organizations/${org}/varsets?${q(params)}`);

  it('filters by global, priority and project ownership before paging, and counts what passes', async () => {
    const global = await list({ 'filter[global]': 'true' });
    expectStatus(global, 200);
    assert.deepEqual(names(global), [
      'g-global-0',
      'g-global-1',
      'g-global-2',
      'g-global-3',
      'g-global-4',
      'g-global-5',
      'g-global-6',
    ]);
    assert.equal(global.body.meta.pagination['total-count'], 7);
    const both = await list({ 'filter[global]': 'true', 'filter[priority]': 'true' });
    assert.deepEqual(names(both), ['g-global-0', 'g-global-1']);
    const notGlobal = await list({ 'filter[global]': 'false', 'page[size]': '100' });
    assert.equal(notGlobal.body.meta.pagination['total-count'], 27);
    assert.deepEqual(names(await list({ 'filter[project-owned]': 'true' })), ['z-owned']);
    // With a search, and paged: the second page of the global sets named "global".
    const paged = await list({ 'filter[global]': 'true', q: 'GLOBAL', 'page[size]': '3', 'page[number]': '2' });
    assert.deepEqual(names(paged), ['g-global-3', 'g-global-4', 'g-global-5']);
    assert.equal(paged.body.meta.pagination['total-pages'], 3);
    assert.match(paged.body.links.next, /filter%5Bglobal%5D=true/);
  });

  it('sorts the whole organization by a column, descending with -, ties by name', async () => {
    assert.equal(names(await list({ sort: '-var-count' }))[0], 'z-many');
    assert.equal(names(await list({ sort: '-workspace-count' }))[0], 'z-many');
    const byScope = names(await list({ sort: 'scope', 'page[size]': '8' }));
    assert.deepEqual(byScope.slice(0, 7), [
      'g-global-0',
      'g-global-1',
      'g-global-2',
      'g-global-3',
      'g-global-4',
      'g-global-5',
      'g-global-6',
    ]);
    const byName = names(await list({ sort: '-name', 'page[size]': '2' }));
    assert.deepEqual(byName, ['z-owned', 'z-many']);
    const updated = await list({ sort: '-updated-at', 'page[size]': '1' });
    assert.equal(names(updated)[0], 'z-owned');
  });

  it('refuses a filter or sort outside its words, and any unknown parameter, with a 400', async () => {
    const refused: Record<string, string>[] = [
      { 'filter[global]': 'yes' },
      { sort: 'colour' },
      { sort: '--name' },
      { 'filter[colour]': 'true' },
      { order: 'name' },
    ];
    for (const params of refused) {
      const res = await list(params);
      expectStatus(res, 400);
      assert.equal(res.body.errors[0].status, '400');
    }
  });

  it('filters the audit trail by type, action and who (ignoring case) over every page', async () => {
    const other = await t.createOrganization();
    const orgId = await organizationId(t, other);
    const token = await organizationToken(t, other);
    for (let i = 0; i < 30; i++) {
      const second = String(i % 60).padStart(2, '0');
      await insertEvent(
        t,
        orgId,
        `2021-01-01T00:01:${second}.000Z`,
        i % 3 === 0 ? { who: 'team platform (token "CI")', type: 'varset', action: 'update' } : {},
      );
    }
    const trail = (params: Record<string, string>) => t.get(`/api/v2/organization/audit-trail?${q(params)}`, { token });
    const byWho = await trail({ 'filter[auth][description]': 'PLATFORM', 'page[size]': '4' });
    expectStatus(byWho, 200);
    assert.equal(byWho.body.pagination.total_count, 10);
    assert.equal(byWho.body.pagination.total_pages, 3);
    assert.ok(byWho.body.data.every((e: any) => e.auth.description === 'team platform (token "CI")'));
    const byType = await trail({
      'filter[resource][type]': 'workspace',
      'filter[resource][action]': 'update',
      since: '2021-01-01T00:01:15.000Z',
    });
    assert.equal(byType.body.pagination.total_count, 10);
    assert.ok(
      byType.body.data.every((e: any) => e.resource.type === 'workspace' && e.timestamp >= '2021-01-01T00:01:15.000Z'),
    );
    assert.equal((await trail({ 'filter[resource][action]': 'rollback' })).body.pagination.total_count, 0);
    expectStatus(await trail({ 'filter[resource][name]': 'x' }), 400);
  });
});
