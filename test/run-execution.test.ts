import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { createUploadedConfigurationVersion } from './support/factories/runs.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** varsetd's own run actions and opened variables: only the token that created a run, only until it finishes. */
describe(`run execution (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
    runner = await teamWithToken(t, org);
    await grantWorkspace(t, runner.teamId, ws, { access: 'plan' });
    await createVarset(t, org, {
      attributes: { global: true },
      vars: [
        { key: 'password', value: 'hunter2 "quoted"', sensitive: true },
        { key: 'AWS_SECRET', category: 'env', value: 's3cr3t', sensitive: true },
        { key: 'region', value: 'eu' },
      ],
    });
  });
  after(async () => t.close());

  async function runBy(token: string): Promise<string> {
    const cv = await createUploadedConfigurationVersion(t, ws);
    const res = await t.post(
      '/api/v2/runs',
      {
        data: {
          type: 'runs',
          attributes: { variables: [{ key: 'region', value: '"us"' }] },
          relationships: {
            workspace: { data: { type: 'workspaces', id: ws } },
            'configuration-version': { data: { type: 'configuration-versions', id: cv } },
          },
        },
      },
      { token },
    );
    expectStatus(res, 201);
    return res.body.data.id;
  }
  const opened = (run: string, token: string) => t.get(`/api/v2/runs/${run}/opened-variables`, { token });
  const events = async (run: string) =>
    ((await t.get(`/api/v2/runs/${run}/run-events`)).body.data as any[]).map((e) => e.attributes.action);
  const status = async (run: string) => (await t.get(`/api/v2/runs/${run}`)).body.data.attributes.status;

  it('gives the creating token the winning values, sensitive ones opened, and records every read', async () => {
    const run = await runBy(runner.token);
    const res = await opened(run, runner.token);
    expectStatus(res, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const byId = Object.fromEntries(res.body.data.map((r: any) => [r.id, r.attributes]));
    assert.deepEqual(byId['terraform:password'], {
      key: 'password',
      category: 'terraform',
      value: 'hunter2 "quoted"',
      hcl: false,
      sensitive: true,
    });
    assert.deepEqual(byId['env:AWS_SECRET'], {
      key: 'AWS_SECRET',
      category: 'env',
      value: 's3cr3t',
      hcl: false,
      sensitive: true,
    });
    assert.deepEqual(byId['terraform:region'], {
      key: 'region',
      category: 'terraform',
      value: '"us"',
      hcl: true,
      sensitive: false,
    });
    expectStatus(await opened(run, runner.token), 200);
    assert.deepEqual(await events(run), ['created', 'variables-opened', 'variables-opened']);
  });

  it('answers 404 to every other token of the organization, owners and site administrator included, and records nothing', async () => {
    const run = await runBy(runner.token);
    const owners = await teamToken(t, await ownersTeam(t, org));
    const other = await teamWithToken(t, org);
    await grantWorkspace(t, other.teamId, ws, { access: 'admin' });
    for (const token of [owners, other.token, await organizationToken(t, org), undefined]) {
      expectStatus(await opened(run, token as string), 404);
      expectStatus(await t.post(`/api/v2/runs/${run}/actions/start`, undefined, { token: token as string }), 404);
      expectStatus(
        await t.post(`/api/v2/runs/${run}/actions/finish`, { 'exit-code': 0 }, { token: token as string }),
        404,
      );
    }
    assert.deepEqual(await events(run), ['created']);
    assert.equal(await status(run), 'pending');
  });

  it('answers 404 to the same team once its token was replaced', async () => {
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, ws, { access: 'plan' });
    const run = await runBy(token);
    const replacement = await teamToken(t, teamId);
    expectStatus(await opened(run, replacement), 404);
  });

  it('moves pending → planning → planned, then refuses the variables with a 409', async () => {
    const run = await runBy(runner.token);
    const started = await t.post(`/api/v2/runs/${run}/actions/start`, undefined, { token: runner.token });
    expectStatus(started, 200);
    assert.equal(started.body.data.attributes.status, 'planning');
    assert.ok(started.body.data.attributes['status-timestamps']['planning-at']);
    expectStatus(await t.post(`/api/v2/runs/${run}/actions/start`, undefined, { token: runner.token }), 409);
    expectStatus(await opened(run, runner.token), 200);
    const finished = await t.post(`/api/v2/runs/${run}/actions/finish`, { 'exit-code': 0 }, { token: runner.token });
    expectStatus(finished, 200);
    assert.equal(finished.body.data.attributes.status, 'planned');
    assert.ok(finished.body.data.attributes['status-timestamps']['planned-at']);
    expectStatus(await opened(run, runner.token), 409);
    expectStatus(await t.post(`/api/v2/runs/${run}/actions/finish`, { 'exit-code': 1 }, { token: runner.token }), 409);
    assert.equal(await status(run), 'planned');
    assert.deepEqual(await events(run), ['created', 'planning', 'variables-opened', 'planned']);
  });

  it('errors a run whose command exited with anything but 0', async () => {
    const run = await runBy(runner.token);
    expectStatus(await t.post(`/api/v2/runs/${run}/actions/start`, undefined, { token: runner.token }), 200);
    const finished = await t.post(`/api/v2/runs/${run}/actions/finish`, { 'exit-code': 130 }, { token: runner.token });
    expectStatus(finished, 200);
    assert.equal(finished.body.data.attributes.status, 'errored');
    assert.ok(finished.body.data.attributes['status-timestamps']['errored-at']);
    expectStatus(await opened(run, runner.token), 409);
  });

  it('refuses a bad exit code with a 422 and changes nothing', async () => {
    const run = await runBy(runner.token);
    for (const body of [{}, { 'exit-code': -1 }, { 'exit-code': 1.5 }, { 'exit-code': '0' }]) {
      expectStatus(await t.post(`/api/v2/runs/${run}/actions/finish`, body, { token: runner.token }), 422);
    }
    assert.equal(await status(run), 'pending');
    assert.deepEqual(await events(run), ['created']);
  });
});
