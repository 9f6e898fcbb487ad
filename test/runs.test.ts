import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import {
  createConfigurationVersion,
  createRun,
  createUploadedConfigurationVersion,
  upload,
} from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const runBody = (workspaceId: string, cvId?: string, attributes?: Record<string, unknown>) => ({
  data: {
    type: 'runs',
    ...(attributes ? { attributes } : {}),
    relationships: {
      workspace: { data: { type: 'workspaces', id: workspaceId } },
      ...(cvId ? { 'configuration-version': { data: { type: 'configuration-versions', id: cvId } } } : {}),
    },
  },
});

describe(`runs (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
  });
  after(async () => t.close());

  it('creates a pending run from the body go-tfe sends (relationships only, no attributes)', async () => {
    const cvId = await createUploadedConfigurationVersion(t, ws, { 'auto-queue-runs': false });
    const res = await t.post('/api/v2/runs', runBody(ws, cvId));
    expectStatus(res, 201);
    const run = res.body.data;
    assert.equal(run.type, 'runs');
    assert.match(run.id, /^run-[A-Za-z0-9]{16}$/);
    assert.equal(run.attributes.status, 'pending');
    assert.equal(run.attributes.message, 'Triggered via API');
    assert.equal(run.attributes['is-destroy'], false);
    assert.equal(run.attributes['plan-only'], false);
    assert.equal(run.attributes.source, 'tfe-api');
    assert.deepEqual(run.attributes.variables, []);
    assert.deepEqual(run.attributes['status-timestamps'], {});
    assert.equal(run.attributes['canceled-at'], null);
    assert.match(run.attributes['created-at'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(run.attributes.actions, {
      'is-cancelable': false,
      'is-confirmable': false,
      'is-discardable': false,
      'is-force-cancelable': false,
    });
    assert.equal(run.attributes.permissions['can-comment'], true);
    assert.equal(run.attributes.permissions['can-apply'], false);
    assert.deepEqual(run.relationships.workspace, { data: { type: 'workspaces', id: ws } });
    assert.deepEqual(run.relationships['configuration-version'], {
      data: { type: 'configuration-versions', id: cvId },
    });
    const events = (await t.get(`/api/v2/runs/${run.id}/run-events`)).body.data;
    assert.equal(events.length, 1);
    assert.deepEqual(run.relationships['run-events'], {
      data: [{ id: events[0].id, type: 'run-events' }],
      links: { related: `/api/v2/runs/${run.id}/run-events` },
    });
    assert.deepEqual(run.relationships.comments, { links: { related: `/api/v2/runs/${run.id}/comments` } });
    assert.deepEqual(run.links, { self: `/api/v2/runs/${run.id}` });

    const shown = await t.get(`/api/v2/runs/${run.id}`);
    expectStatus(shown, 200);
    assert.deepEqual(shown.body.data, run);
  });

  it('keeps message, is-destroy and run variables', async () => {
    const variables = [
      { key: 'region', value: '"eu-west-1"' },
      { key: 'count', value: '3' },
    ];
    const run = await createRun(t, ws, { message: 'tear it down', 'is-destroy': true, variables });
    assert.equal(run.attributes.message, 'tear it down');
    assert.equal(run.attributes['is-destroy'], true);
    assert.deepEqual(run.attributes.variables, variables);
    assert.deepEqual((await t.get(`/api/v2/runs/${run.id}`)).body.data.attributes.variables, variables);
  });

  it('is plan-only on a speculative configuration version', async () => {
    const cvId = await createUploadedConfigurationVersion(t, ws, { speculative: true });
    const res = await t.post('/api/v2/runs', runBody(ws, cvId));
    expectStatus(res, 201);
    assert.equal(res.body.data.attributes['plan-only'], true);
  });

  it('uses the workspace’s latest uploaded configuration version when none is named', async () => {
    const w = await t.createWorkspace(org);
    let res = await t.post('/api/v2/runs', runBody(w));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/relationships/configuration-version');
    await createUploadedConfigurationVersion(t, w);
    const latest = await createUploadedConfigurationVersion(t, w);
    await createConfigurationVersion(t, w); // pending, newer: not eligible
    res = await t.post('/api/v2/runs', runBody(w));
    expectStatus(res, 201);
    assert.equal(res.body.data.relationships['configuration-version'].data.id, latest);
  });

  it('refuses a configuration version that is not uploaded with 422', async () => {
    const pending = await createConfigurationVersion(t, ws);
    let res = await t.post('/api/v2/runs', runBody(ws, pending.id));
    assert.equal(res.status, 422);
    assert.match(res.body.errors[0].detail, /pending/);
    const errored = await createConfigurationVersion(t, ws);
    await upload(t, errored.attributes['upload-url'], Buffer.from('not an archive'));
    res = await t.post('/api/v2/runs', runBody(ws, errored.id));
    assert.equal(res.status, 422);
  });

  it('answers 404 for an unknown workspace, an unknown configuration version or one of another workspace', async () => {
    const other = await t.createWorkspace(org);
    const otherCv = await createUploadedConfigurationVersion(t, other);
    assert.equal((await t.post('/api/v2/runs', runBody('ws-nope'))).status, 404);
    assert.equal((await t.post('/api/v2/runs', runBody(ws, 'cv-nope'))).status, 404);
    assert.equal((await t.post('/api/v2/runs', runBody(ws, otherCv))).status, 404);
  });

  it('refuses malformed bodies with 422 and a pointer, creating nothing', async () => {
    const w = await t.createWorkspace(org);
    const cvId = await createUploadedConfigurationVersion(t, w);
    const cases: Array<[unknown, string]> = [
      [{ data: { type: 'comments', relationships: runBody(w, cvId).data.relationships } }, '/data/type'],
      [{ data: { type: 'runs' } }, '/data/relationships/workspace'],
      [
        { data: { type: 'runs', relationships: { workspace: { data: { type: 'projects', id: w } } } } },
        '/data/relationships/workspace/data/type',
      ],
      [runBody(w, cvId, { message: 42 }), '/data/attributes/message'],
      [runBody(w, cvId, { message: 'm'.repeat(10_001) }), '/data/attributes/message'],
      [runBody(w, cvId, { 'is-destroy': 'true' }), '/data/attributes/is-destroy'],
      [runBody(w, cvId, { variables: { key: 'a', value: 'b' } }), '/data/attributes/variables'],
      [runBody(w, cvId, { variables: ['a=b'] }), '/data/attributes/variables/0'],
      [runBody(w, cvId, { variables: [{ value: '1' }] }), '/data/attributes/variables/0/key'],
      [runBody(w, cvId, { variables: [{ key: '', value: '1' }] }), '/data/attributes/variables/0/key'],
      [runBody(w, cvId, { variables: [{ key: 'a', value: 1 }] }), '/data/attributes/variables/0/value'],
      [
        runBody(w, cvId, {
          variables: [
            { key: 'a', value: '1' },
            { key: 'a', value: '2' },
          ],
        }),
        '/data/attributes/variables/1/key',
      ],
    ];
    for (const [body, pointer] of cases) {
      const res = await t.post('/api/v2/runs', body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.errors[0].source.pointer, pointer, JSON.stringify(body));
    }
    assert.equal((await t.post('/api/v2/runs', 'nope', { contentType: 'text/plain' })).status, 415);
    const list = await t.get(`/api/v2/workspaces/${w}/runs`);
    assert.equal(list.body.meta.pagination['total-count'], 0);
  });

  it('answers 404 for an unknown run and 400 for an include it cannot serve', async () => {
    assert.equal((await t.get('/api/v2/runs/run-nope')).status, 404);
    assert.equal((await t.get('/api/v2/workspaces/ws-nope/runs')).status, 404);
    const run = await createRun(t, ws);
    expectStatus(await t.get(`/api/v2/runs/${run.id}?include=`), 200);
    assert.equal((await t.get(`/api/v2/runs/${run.id}?include=plan`)).status, 400);
  });

  it('needs a token', async () => {
    const run = await createRun(t, ws);
    assert.equal((await t.get(`/api/v2/runs/${run.id}`, { token: null })).status, 401);
    assert.equal((await t.post('/api/v2/runs', runBody(ws), { token: null })).status, 401);
  });

  it('lists a workspace’s runs newest first, paginated', async () => {
    const w = await t.createWorkspace(org);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createRun(t, w, { message: `run ${i}` })).id);
    let res = await t.get(`/api/v2/workspaces/${w}/runs`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((r: any) => r.id),
      [...ids].reverse(),
    );
    assert.deepEqual(res.body.data[0], (await t.get(`/api/v2/runs/${ids[2]}`)).body.data);
    assert.equal(res.body.meta.pagination['total-count'], 3);
    res = await t.get(`/api/v2/workspaces/${w}/runs?page%5Bsize%5D=2`);
    assert.deepEqual(
      res.body.data.map((r: any) => r.id),
      [ids[2], ids[1]],
    );
    assert.equal(res.body.meta.pagination['next-page'], 2);
    assert.equal(res.body.links.next, `/api/v2/workspaces/${w}/runs?page%5Bnumber%5D=2&page%5Bsize%5D=2`);
    res = await t.get(`/api/v2/workspaces/${w}/runs?include=&page%5Bnumber%5D=999&page%5Bsize%5D=100`);
    assert.deepEqual(res.body.data, []);
    assert.equal(res.body.meta.pagination['current-page'], 999);
  });

  it('records a created run event', async () => {
    const run = await createRun(t, ws);
    const res = await t.get(`/api/v2/runs/${run.id}/run-events`);
    expectStatus(res, 200);
    assert.equal(res.body.data.length, 1);
    const event = res.body.data[0];
    assert.equal(event.type, 'run-events');
    assert.match(event.id, /^re-[A-Za-z0-9]{16}$/);
    assert.equal(event.attributes.action, 'created');
    assert.equal(event.attributes.description, 'Run created');
    assert.equal(event.attributes['created-at'], run.attributes['created-at']);
    assert.deepEqual(event.relationships, { actor: { data: null }, comment: { data: null } });
  });

  it('removes runs and their events with the workspace, and with the organization', async () => {
    const w = await t.createWorkspace(org);
    const run = await createRun(t, w);
    expectStatus(await t.delete(`/api/v2/workspaces/${w}`), 204);
    assert.equal((await t.get(`/api/v2/runs/${run.id}`)).status, 404);
    assert.deepEqual(await t.store.db.selectFrom('run_events').select('id').where('run_id', '=', run.id).execute(), []);

    const org2 = await t.createOrganization();
    const w2 = await t.createWorkspace(org2);
    const run2 = await createRun(t, w2);
    expectStatus(await t.delete(`/api/v2/organizations/${org2}`), 204);
    assert.equal((await t.get(`/api/v2/runs/${run2.id}`)).status, 404);
    assert.deepEqual(await t.store.db.selectFrom('runs').select('id').where('workspace_id', '=', w2).execute(), []);
  });
});
