import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryCounter } from '../src/db/query-counter.js';
import { TestApp } from './support/app.js';
import { createRun, createUploadedConfigurationVersion } from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** The run list's filters and search, and what a run includes, as HCP Terraform documents them. */
describe(`run filters and includes (${storeKind})`, () => {
  const counter = new QueryCounter();
  let t: TestApp;
  let ws: string;
  let applied: any;
  let destroy: any;
  let speculative: any;
  before(async () => {
    t = await TestApp.start();
    const org = await t.createOrganization();
    ws = await t.createWorkspace(org);
    applied = await createRun(t, ws, { message: 'Add the Network' });
    destroy = await createRun(t, ws, { message: 'tear down', 'is-destroy': true });
    const cv = await createUploadedConfigurationVersion(t, ws, { speculative: true });
    const res = await t.post('/api/v2/runs', {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: ws } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      },
    });
    expectStatus(res, 201);
    speculative = res.body.data;
    // The first run goes through its plan: planned.
    expectStatus(await t.post(`/api/v2/runs/${applied.id}/actions/start`), 200);
    expectStatus(await t.post(`/api/v2/runs/${applied.id}/actions/finish`, { 'exit-code': 0 }), 200);
    (t.store as { db: unknown }).db = t.store.db.withPlugin(counter);
  });
  after(async () => t.close());

  const ids = async (query: string) => {
    const res = await t.get(`/api/v2/workspaces/${ws}/runs?${query}`);
    expectStatus(res, 200);
    return res.body.data.map((run: { id: string }) => run.id).sort();
  };
  const sorted = (...runs: { id: string }[]) => runs.map((run) => run.id).sort();

  it('filters by status, status group, operation and source', async () => {
    assert.deepEqual(await ids('filter%5Bstatus%5D=planned'), sorted(applied));
    assert.deepEqual(await ids('filter%5Bstatus%5D=pending,applied'), sorted(destroy, speculative));
    assert.deepEqual(await ids('filter%5Bstatus%5D=discarded'), []);
    assert.deepEqual(await ids('filter%5Bstatus_group%5D=final'), sorted(applied));
    assert.deepEqual(await ids('filter%5Bstatus_group%5D=non_final'), sorted(destroy, speculative));
    assert.deepEqual(await ids('filter%5Bstatus_group%5D=discardable'), []);
    assert.deepEqual(await ids('filter%5Boperation%5D=destroy'), sorted(destroy));
    assert.deepEqual(await ids('filter%5Boperation%5D=plan_only'), sorted(speculative));
    assert.deepEqual(await ids('filter%5Boperation%5D=plan_and_apply,refresh_only'), sorted(applied));
    assert.deepEqual(await ids('filter%5Bsource%5D=tfe-api'), sorted(applied, destroy, speculative));
    assert.deepEqual(await ids('filter%5Bsource%5D=tfe-ui'), []);
    assert.deepEqual(await ids('filter%5Bstatus%5D=pending&filter%5Boperation%5D=destroy'), sorted(destroy));
  });

  it('searches run ids and messages, case included', async () => {
    assert.deepEqual(await ids(`search%5Bbasic%5D=${destroy.id}`), sorted(destroy));
    assert.deepEqual(await ids('search%5Bbasic%5D=Network'), sorted(applied));
    assert.deepEqual(await ids('search%5Bbasic%5D=network'), []);
    assert.deepEqual(await ids('search%5Bbasic%5D='), sorted(applied, destroy, speculative));
  });

  it('refuses an unknown filter value, and the filters and searches about what varsetd has not', async () => {
    for (const [query, parameter] of [
      ['filter%5Bstatus%5D=done', 'filter[status]'],
      ['filter%5Boperation%5D=apply', 'filter[operation]'],
      ['filter%5Bstatus_group%5D=final,non_final', 'filter[status_group]'],
      ['search%5Buser%5D=alice', 'search[user]'],
      ['search%5Bcommit%5D=abc123', 'search[commit]'],
      ['filter%5Bagent_pool_names%5D=pool', 'filter[agent_pool_names]'],
    ]) {
      const res = await t.get(`/api/v2/workspaces/${ws}/runs?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.errors[0].source.parameter, parameter);
    }
  });

  it("names a run's events and includes its workspace and configuration version", async () => {
    const events = (await t.get(`/api/v2/runs/${applied.id}/run-events`)).body.data.map((e: { id: string }) => ({
      id: e.id,
      type: 'run-events',
    }));
    assert.equal(events.length, 3);
    const res = await t.get(`/api/v2/runs/${applied.id}?include=workspace,configuration_version`);
    expectStatus(res, 200);
    assert.deepEqual(res.body.data.relationships['run-events'].data, events);
    assert.deepEqual(res.body.included.map((r: { type: string; id: string }) => `${r.type} ${r.id}`).sort(), [
      `configuration-versions ${applied.relationships['configuration-version'].data.id}`,
      `workspaces ${ws}`,
    ]);
    const list = await t.get(`/api/v2/workspaces/${ws}/runs?include=workspace`);
    assert.deepEqual(
      list.body.included.map((r: { id: string }) => r.id),
      [ws],
    );
    assert.equal((await t.get(`/api/v2/runs/${applied.id}`)).body.included, undefined);
    assert.equal((await t.get(`/api/v2/runs/${applied.id}?include=created_by`)).status, 400);
  });

  it('costs the same number of statements for a page of 1 run and a page of 3, with what they include', async () => {
    const page = async (size: number) => {
      counter.count = 0;
      const res = await t.get(
        `/api/v2/workspaces/${ws}/runs?include=workspace,configuration_version&page%5Bsize%5D=${size}`,
      );
      expectStatus(res, 200);
      // Each run has its own configuration version.
      assert.equal(res.body.included.filter((r: { type: string }) => r.type === 'configuration-versions').length, size);
      return counter.count;
    };
    assert.equal(await page(1), await page(3));
  });

  it('accepts include=ingress_attributes on configuration versions, which includes nothing', async () => {
    const cv = applied.relationships['configuration-version'].data.id;
    const one = await t.get(`/api/v2/configuration-versions/${cv}?include=ingress_attributes`);
    expectStatus(one, 200);
    assert.deepEqual(one.body.data.relationships['ingress-attributes'].data, null);
    assert.equal(one.body.included, undefined);
    expectStatus(
      await t.get(`/api/v2/workspaces/${ws}/configuration-versions?include=ingress_attributes&page%5Bsize%5D=1`),
      200,
    );
    assert.equal((await t.get(`/api/v2/configuration-versions/${cv}?include=run`)).status, 400);
  });
});
