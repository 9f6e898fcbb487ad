import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryCounter } from '../src/db/query-counter.js';
import { TestApp } from './support/app.js';
import { createOrganization } from './support/factories/organizations.js';
import { assign, createVar, createVarset, postVar } from './support/factories/varsets.js';
import { expectStatus, type Client } from './support/requests.js';
import { storeKind } from './support/store.js';

describe(`queries per variable set request (${storeKind})`, () => {
  const counter = new QueryCounter();
  let app: TestApp;
  let c: Client;
  let org: string;
  let projectId: string;
  let workspaceId: string;

  before(async () => {
    app = await TestApp.start({}, (store) => ({ ...store, db: store.db.withPlugin(counter) }));
    c = app;
    org = await createOrganization(c);
    const projectRes = await c.post(`/api/v2/organizations/${org}/projects`, {
      data: { type: 'projects', attributes: { name: 'counted' } },
    });
    projectId = projectRes.body.data.id;
    const workspaceRes = await c.post(`/api/v2/organizations/${org}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: { name: 'counted' },
        relationships: { project: { data: { type: 'projects', id: projectId } } },
      },
    });
    workspaceId = workspaceRes.body.data.id;
    for (let i = 0; i < 100; i++) {
      const set = await createVarset(c, org, {
        attributes: { name: `set-${String(i).padStart(3, '0')}` },
        vars: [{ key: `a${i}` }, { key: `b${i}`, category: 'env' }],
      });
      await assign(c, set.id, 'projects', [projectId]);
      if (i % 2 === 0) await assign(c, set.id, 'workspaces', [workspaceId]);
    }
  });
  after(async () => app.close());

  async function queriesFor(url: string): Promise<{ queries: number; body: any }> {
    counter.count = 0;
    const res = await c.get(url);
    expectStatus(res, 200);
    return { queries: counter.count, body: res.body };
  }

  for (const [name, path] of [
    ['organization', () => `/api/v2/organizations/${org}/varsets`],
    ['project', () => `/api/v2/projects/${projectId}/varsets`],
    ['workspace', () => `/api/v2/workspaces/${workspaceId}/varsets`],
  ] as const) {
    it(`a page of 100 ${name} sets with include=vars,workspaces,projects costs what a page of 1 costs`, async () => {
      const query = 'include=vars,workspaces,projects';
      const one = await queriesFor(`${path()}?${query}&page%5Bsize%5D=1`);
      const hundred = await queriesFor(`${path()}?${query}&page%5Bsize%5D=100`);
      assert.equal(one.body.data.length, 1);
      assert.equal(hundred.body.data.length, 100);
      assert.ok(hundred.body.included.filter((r: any) => r.type === 'vars').length === 200);
      assert.equal(hundred.queries, one.queries);
      // Token, owner with its organization's version, the page with its count, relationships and variables, then the
      // included projects (one statement), and the included workspaces read in full as their own responses show them
      // (six: the rows with their organization, what each holds, their projects and the organization's settings).
      // A workspace's list reads no token first: the workspace's statement confirms its kept subject (src/http/credentials.ts).
      assert.equal(hundred.queries, name === 'workspace' ? 9 : 10, `${hundred.queries} queries`);
    });
  }

  it('a list without include costs no more, and a set or variable list is constant too', async () => {
    const plain = await queriesFor(`/api/v2/organizations/${org}/varsets?page%5Bsize%5D=100`);
    const included = await queriesFor(`/api/v2/organizations/${org}/varsets?page%5Bsize%5D=100&include=vars`);
    assert.equal(plain.queries, included.queries);
    // Token, owner with its organization's version, and the page with its count, relationships and variables.
    assert.equal(plain.queries, 3, `${plain.queries} queries`);
    const setId = plain.body.data[0].id;
    // The set with its organization's version, relationships and variables, and the credentials
    // version that confirms the token's kept subject (src/http/credentials.ts).
    assert.equal((await queriesFor(`/api/v2/varsets/${setId}?include=vars`)).queries, 1);
    assert.equal((await queriesFor(`/api/v2/varsets/${setId}`)).queries, 1);
    // The projects included cost one statement, the workspaces included six (as in a list).
    const show = await queriesFor(`/api/v2/varsets/${setId}?include=vars,workspaces,projects`);
    assert.equal(show.queries, 8, `${show.queries} queries`);
    const vars = await queriesFor(`/api/v2/varsets/${setId}/relationships/vars`);
    assert.ok(vars.queries <= 4, `${vars.queries} queries`);
  });

  it('a repeated read is answered from the response cache: token, and the set or owner the permission needs, which comes with its organization version', async () => {
    for (const url of [
      `/api/v2/organizations/${org}/varsets?page%5Bsize%5D=50&include=vars`,
      `/api/v2/projects/${projectId}/varsets?page%5Bsize%5D=50`,
      `/api/v2/workspaces/${workspaceId}/varsets?page%5Bsize%5D=50&q=set`,
    ]) {
      const first = await queriesFor(url);
      const again = await queriesFor(url);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.queries, url.includes('/workspaces/') ? 1 : 2, `${url}: ${again.queries} queries`);
    }
    const setId = (await queriesFor(`/api/v2/organizations/${org}/varsets`)).body.data[0].id;
    const first = await queriesFor(`/api/v2/varsets/${setId}?include=vars`);
    const again = await queriesFor(`/api/v2/varsets/${setId}?include=vars`);
    assert.deepEqual(again.body, first.body);
    // A set's show: the set's statement alone, which reads the credentials version too.
    assert.equal(again.queries, 1);
  });

  it("a variable written to a global set: the token, the schema check (src/db/schema-guard.ts), the set, the set's keys, the global rule, the write, the set's timestamp, its new version (from the set read before and the variable written, not read again) and the audit event (PostgreSQL first locks the set's organization, found in the locking statement, and sends the last three as one)", async () => {
    const set = await createVarset(c, org, { attributes: { global: true }, vars: [{ key: 'counted_first' }] });
    const postgres = storeKind === 'postgres';
    // PostgreSQL: two fewer for the timestamp, the version and the event, held back and sent together.
    // Every write transaction first reads whether a newer varsetd migrated past this build: one statement more
    // (on PostgreSQL the organization's locking statement, which reads it and the token's credentials version:
    // one statement fewer).
    const differs = (postgres ? -2 - 1 : 0) + 1;
    counter.count = 0;
    const added = await createVar(c, set.id, { key: 'counted_second' });
    assert.equal(counter.count, 8 + differs, `add: ${counter.count} statements`);
    counter.count = 0;
    expectStatus(
      await c.patch(`/api/v2/varsets/${set.id}/relationships/vars/${added.id}`, {
        data: { type: 'vars', attributes: { value: 'changed' } },
      }),
      200,
    );
    assert.equal(counter.count, 9 + differs, `update: ${counter.count} statements`);
    counter.count = 0;
    // The audit event names the variable's key, returned by its deletion.
    expectStatus(await c.delete(`/api/v2/varsets/${set.id}/relationships/vars/${added.id}`), 204);
    assert.equal(counter.count, 6 + differs, `delete: ${counter.count} statements`);
    // A set that is not there: the token, the schema check and the set's read, which answers 404 (PostgreSQL's locking statement, which finds no organization, reads the first two).
    counter.count = 0;
    expectStatus(await postVar(c, 'varset-missing', { key: 'nowhere' }), 404);
    assert.equal(counter.count, postgres ? 2 : 3, `add to a missing set: ${counter.count} statements`);
  });
});
