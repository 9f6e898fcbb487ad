import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createRun } from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const body = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'workspaces', attributes, ...(relationships ? { relationships } : {}) },
});

describe(`workspace settings (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('creates a workspace with HCP Terraform’s defaults and answers the same document on read', async () => {
    const res = await t.post(`/api/v2/organizations/${org}/workspaces`, body({ name: 'defaults' }));
    expectStatus(res, 201);
    const a = res.body.data.attributes;
    assert.deepEqual(
      {
        'allow-destroy-plan': a['allow-destroy-plan'],
        'auto-apply': a['auto-apply'],
        'auto-apply-run-trigger': a['auto-apply-run-trigger'],
        'assessments-enabled': a['assessments-enabled'],
        'file-triggers-enabled': a['file-triggers-enabled'],
        'global-remote-state': a['global-remote-state'],
        'queue-all-runs': a['queue-all-runs'],
        'speculative-enabled': a['speculative-enabled'],
        'structured-run-output-enabled': a['structured-run-output-enabled'],
        'terraform-version': a['terraform-version'],
        'trigger-prefixes': a['trigger-prefixes'],
        'trigger-patterns': a['trigger-patterns'],
        'working-directory': a['working-directory'],
        'execution-mode': a['execution-mode'],
        'setting-overwrites': a['setting-overwrites'],
        operations: a.operations,
        'auto-destroy-at': a['auto-destroy-at'],
        'source-name': a['source-name'],
        locked: a.locked,
        'resource-count': a['resource-count'],
        'vcs-repo': a['vcs-repo'],
        'tag-names': a['tag-names'],
      },
      {
        'allow-destroy-plan': true,
        'auto-apply': false,
        'auto-apply-run-trigger': false,
        'assessments-enabled': false,
        'file-triggers-enabled': true,
        'global-remote-state': false,
        'queue-all-runs': false,
        'speculative-enabled': true,
        'structured-run-output-enabled': true,
        'terraform-version': 'latest',
        'trigger-prefixes': [],
        'trigger-patterns': [],
        'working-directory': '',
        'execution-mode': 'remote',
        'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
        operations: true,
        'auto-destroy-at': null,
        'source-name': null,
        locked: false,
        'resource-count': 0,
        'vcs-repo': null,
        'tag-names': [],
      },
    );
    assert.deepEqual(res.body.data.relationships['locked-by'], { data: null });
    assert.deepEqual(res.body.data.relationships['current-configuration-version'], { data: null });
    assert.equal(res.body.data.links['self-html'], `/app/${org}/workspaces/defaults`);
    const read = await t.get(`/api/v2/workspaces/${res.body.data.id}`);
    assert.deepEqual(read.body.data, res.body.data);
    const byName = await t.get(`/api/v2/organizations/${org}/workspaces/defaults`);
    assert.deepEqual(byName.body.data, res.body.data);
  });

  it('stores every writable setting and answers it back, on create and on update', async () => {
    const settings = {
      name: 'configured',
      description: 'all of them',
      'allow-destroy-plan': false,
      'auto-apply': true,
      'auto-apply-run-trigger': true,
      'assessments-enabled': true,
      'file-triggers-enabled': false,
      'global-remote-state': true,
      'queue-all-runs': true,
      'speculative-enabled': false,
      'structured-run-output-enabled': false,
      'source-name': 'my-app',
      'source-url': 'https://example.com/app',
      'terraform-version': '~> 1.9.0',
      'trigger-prefixes': ['/modules', '/shared'],
      'working-directory': 'infra/',
      'execution-mode': 'local',
      'auto-destroy-at': '2030-01-02T03:04:05Z',
    };
    const res = await t.post(`/api/v2/organizations/${org}/workspaces`, body(settings));
    expectStatus(res, 201);
    const a = res.body.data.attributes;
    for (const [key, value] of Object.entries(settings)) assert.deepEqual(a[key], value, key);
    assert.equal(a.operations, false);
    assert.deepEqual(a['setting-overwrites'], { 'execution-mode': true, 'agent-pool': true });

    const update = await t.patch(
      `/api/v2/workspaces/${res.body.data.id}`,
      body({ 'trigger-patterns': ['/src/**/*'], 'auto-apply': false, operations: true, 'auto-destroy-at': null }),
    );
    expectStatus(update, 200);
    const u = update.body.data.attributes;
    assert.deepEqual(u['trigger-patterns'], ['/src/**/*']);
    assert.deepEqual(u['trigger-prefixes'], [], 'one kind of trigger at a time');
    assert.equal(u['auto-apply'], false);
    assert.equal(u['execution-mode'], 'remote');
    assert.equal(u['auto-destroy-at'], null);
    assert.equal(u['working-directory'], 'infra/', 'what the update leaves out is kept');

    const inherit = await t.patch(
      `/api/v2/workspaces/${res.body.data.id}`,
      body({ 'setting-overwrites': { 'execution-mode': false, 'agent-pool': false } }),
    );
    assert.deepEqual(inherit.body.data.attributes['setting-overwrites'], {
      'execution-mode': false,
      'agent-pool': false,
    });
    assert.equal(inherit.body.data.attributes['execution-mode'], 'remote');
  });

  it('counts an inactivity duration from the last change', async () => {
    const res = await t.post(
      `/api/v2/organizations/${org}/workspaces`,
      body({ name: 'ephemeral', 'auto-destroy-activity-duration': '2d' }),
    );
    expectStatus(res, 201);
    const a = res.body.data.attributes;
    assert.equal(a['auto-destroy-activity-duration'], '2d');
    const due = Date.parse(a['auto-destroy-at']) - Date.parse(a['updated-at']);
    assert.ok(Math.abs(due - 2 * 86_400_000) < 2000, `${due}`);
    const off = await t.patch(
      `/api/v2/workspaces/${res.body.data.id}`,
      body({ 'auto-destroy-activity-duration': null }),
    );
    assert.equal(off.body.data.attributes['auto-destroy-at'], null);
  });

  it('refuses what it cannot keep with a 422 pointing at the attribute, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ 'terraform-version': 'nonexisting' }, '/data/attributes/terraform-version'],
      [{ 'execution-mode': 'agent' }, '/data/attributes/execution-mode'],
      [{ 'execution-mode': 'elsewhere' }, '/data/attributes/execution-mode'],
      [{ 'agent-pool-id': 'apool-123' }, '/data/attributes/agent-pool-id'],
      [{ 'vcs-repo': { identifier: 'acme/app' } }, '/data/attributes/vcs-repo'],
      [{ 'hyok-enabled': true }, '/data/attributes/hyok-enabled'],
      [{ 'execution-mode': 'remote', operations: true }, '/data/attributes/operations'],
      [{ 'trigger-prefixes': ['/a'], 'trigger-patterns': ['/b/*'] }, '/data/attributes/trigger-patterns'],
      [{ 'auto-apply': 'yes' }, '/data/attributes/auto-apply'],
      [{ 'auto-destroy-at': 'tomorrow' }, '/data/attributes/auto-destroy-at'],
      [{ 'auto-destroy-activity-duration': '2 weeks' }, '/data/attributes/auto-destroy-activity-duration'],
      [{ 'source-url': 'not a url' }, '/data/attributes/source-url'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await t.post(`/api/v2/organizations/${org}/workspaces`, body({ name: 'refused', ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(attributes));
      assert.equal(res.body.errors[0].source.pointer, pointer, JSON.stringify(attributes));
    }
    assert.equal((await t.get(`/api/v2/organizations/${org}/workspaces/refused`)).status, 404);
    // An empty agent pool and a null VCS repository say "none": accepted.
    expectStatus(
      await t.post(
        `/api/v2/organizations/${org}/workspaces`,
        body({ name: 'no-pool', 'agent-pool-id': '', 'vcs-repo': null }),
      ),
      201,
    );
  });

  it('links the workspace’s variables and its newest configuration version', async () => {
    const id = await t.createWorkspace(org, { name: 'linked' });
    const variable = await t.post(`/api/v2/workspaces/${id}/vars`, {
      data: { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } },
    });
    expectStatus(variable, 201);
    await t.post(`/api/v2/workspaces/${id}/configuration-versions`, { data: { type: 'configuration-versions' } });
    const cv = await t.post(`/api/v2/workspaces/${id}/configuration-versions`, {
      data: { type: 'configuration-versions' },
    });
    expectStatus(cv, 201);
    const res = await t.get(`/api/v2/workspaces/${id}`);
    assert.deepEqual(res.body.data.relationships.vars.data, [{ id: variable.body.data.id, type: 'vars' }]);
    assert.deepEqual(res.body.data.relationships['current-configuration-version'].data, {
      id: cv.body.data.id,
      type: 'configuration-versions',
    });
    assert.deepEqual(res.body.data.relationships['current-run'].data, null);
    assert.equal(res.body.data.attributes['workspace-kpis-runs-count'], 0);
  });

  it('counts the workspace’s runs and links its newest one', async () => {
    const id = await t.createWorkspace(org, { name: 'with-runs' });
    await createRun(t, id);
    const newest = await createRun(t, id);
    const res = await t.get(`/api/v2/workspaces/${id}`);
    assert.equal(res.body.data.attributes['workspace-kpis-runs-count'], 2);
    assert.equal(res.body.data.attributes['run-failures'], 0);
    assert.deepEqual(res.body.data.relationships['current-run'].data, { id: newest.id, type: 'runs' });
  });
});
