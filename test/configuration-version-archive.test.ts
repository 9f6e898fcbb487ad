import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import {
  configArchive,
  createConfigurationVersion,
  createUploadedConfigurationVersion,
  showConfigurationVersion,
  upload,
} from './support/factories/runs.js';
import { expectStatus } from './support/requests.js';
import { insertOldSiteAdminToken, storeKind, withStoreMigratedTo } from './support/store.js';

describe(`archiving configuration versions (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  const archive = (id: string, token?: string) =>
    t.post(`/api/v2/configuration-versions/${id}/actions/archive`, undefined, token === undefined ? {} : { token });
  const startRun = (workspaceId: string, cvId: string) =>
    t.post('/api/v2/runs', {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: workspaceId } },
          'configuration-version': { data: { type: 'configuration-versions', id: cvId } },
        },
      },
    });

  it('archives an uploaded version that is not current: 202 without a body, archive discarded, runs still readable', async () => {
    const ws = await t.createWorkspace(org);
    const older = await createUploadedConfigurationVersion(t, ws);
    const run = await startRun(ws, older);
    expectStatus(run, 201);
    // The run finishes, so only the current-version rule stands in the way.
    await t.store.db
      .updateTable('runs')
      .set({ status: 'errored', finished_at: new Date().toISOString() })
      .where('id', '=', run.body.data.id)
      .execute();

    const refused = await archive(older);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.errors[0].title, 'transition not allowed');
    assert.equal(refused.body.errors[0].detail, 'configuration could not be archived because it is current');

    // A provisional version never becomes current.
    await createUploadedConfigurationVersion(t, ws, { provisional: true });
    assert.equal((await archive(older)).status, 409);

    await createUploadedConfigurationVersion(t, ws);
    const res = await archive(older);
    assert.equal(res.status, 202);
    assert.equal(res.body, undefined);

    const read = (await showConfigurationVersion(t, older)).body.data;
    assert.equal(read.attributes.status, 'archived');
    assert.match(read.attributes['status-timestamps']['archived-at'], /Z$/);
    assert.equal(read.links.download, undefined);
    assert.equal((await t.get(`/api/v2/configuration-versions/${older}/download`)).status, 404);
    const archives = await t.store.db
      .selectFrom('configuration_version_archives')
      .select('configuration_version_id')
      .where('configuration_version_id', '=', older)
      .execute();
    assert.deepEqual(archives, []);

    const runRead = await t.get(`/api/v2/runs/${run.body.data.id}?include=configuration_version`);
    expectStatus(runRead, 200);
    assert.equal(runRead.body.included[0].attributes.status, 'archived');
    // A run cannot start on it any more, and archiving it again is refused.
    assert.equal((await startRun(ws, older)).status, 422);
    const again = await archive(older);
    assert.equal(again.status, 409);
    assert.equal(again.body.errors[0].title, 'transition not allowed');
  });

  it('refuses a version that is not uploaded, or that an unfinished run uses', async () => {
    const ws = await t.createWorkspace(org);
    const pending = await createConfigurationVersion(t, ws);
    const inUse = await createUploadedConfigurationVersion(t, ws);
    expectStatus(await startRun(ws, inUse), 201);
    await createUploadedConfigurationVersion(t, ws);
    const res = await archive(pending.id);
    assert.equal(res.status, 409);
    assert.match(res.body.errors[0].detail, /because it is pending/);
    const busy = await archive(inUse);
    assert.equal(busy.status, 409);
    assert.match(busy.body.errors[0].detail, /a run that has not finished uses it/);
    assert.equal((await showConfigurationVersion(t, inUse)).body.data.attributes.status, 'uploaded');
  });

  it('makes the upload URL unusable', async () => {
    const ws = await t.createWorkspace(org);
    const cv = await createConfigurationVersion(t, ws);
    expectStatus(await upload(t, cv.attributes['upload-url'], configArchive()), 200);
    await createUploadedConfigurationVersion(t, ws);
    assert.equal((await archive(cv.id)).status, 202);
    assert.equal((await upload(t, cv.attributes['upload-url'], configArchive())).status, 404);
    assert.equal((await showConfigurationVersion(t, cv.id)).body.data.attributes.status, 'archived');
  });

  it('is for those who may queue runs on the workspace: 404 for everyone else and for an unknown version', async () => {
    const ws = await t.createWorkspace(org);
    const cv = await createUploadedConfigurationVersion(t, ws);
    await createUploadedConfigurationVersion(t, ws);
    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, ws, { access: 'read' });
    const stranger = await teamWithToken(t, org);
    assert.equal((await showConfigurationVersion(t, cv)).status, 200);
    assert.equal((await t.get(`/api/v2/configuration-versions/${cv}`, { token: reader.token })).status, 200);
    assert.equal((await archive(cv, reader.token)).status, 404);
    assert.equal((await archive(cv, stranger.token)).status, 404);
    assert.equal(
      (await t.post(`/api/v2/configuration-versions/${cv}/actions/archive`, undefined, { token: null })).status,
      401,
    );
    assert.equal((await showConfigurationVersion(t, cv)).body.data.attributes.status, 'uploaded');
    const planner = await teamWithToken(t, org);
    await grantWorkspace(t, planner.teamId, ws, { access: 'plan' });
    assert.equal((await archive(cv, planner.token)).status, 202);
    assert.equal((await archive('cv-nope')).status, 404);
  });
});

/** Migration 0013 rebuilds the configuration versions table on SQLite: every row, run and archive stays. */
describe(`archived configuration versions migration on an existing store (${storeKind})`, () => {
  it('keeps versions, their archives and runs, and allows archiving afterwards', async () => {
    await withStoreMigratedTo('0012_tokens_and_grants', async (store) => {
      const db = store.db as Kysely<any>;
      const at = '2024-01-01T00:00:00.000Z';
      await db
        .insertInto('organizations')
        .values({ id: 'org-old', name: 'old', email: 'o@example.com', created_at: at })
        .execute();
      await db
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
      await db
        .insertInto('workspaces')
        .values({
          id: 'ws-old',
          organization_id: 'org-old',
          project_id: 'prj-old',
          name: 'w',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const cv = (id: string) => ({
        id,
        workspace_id: 'ws-old',
        status: 'uploaded',
        auto_queue_runs: true,
        speculative: false,
        provisional: false,
        created_at: at,
        uploaded_at: at,
      });
      await db
        .insertInto('configuration_versions')
        .values([cv('cv-older'), cv('cv-newer')])
        .execute();
      const kept = configArchive();
      await db
        .insertInto('configuration_version_archives')
        .values({ configuration_version_id: 'cv-older', data: kept })
        .execute();
      await db
        .insertInto('runs')
        .values({
          id: 'run-old',
          workspace_id: 'ws-old',
          configuration_version_id: 'cv-older',
          status: 'errored',
          message: 'm',
          is_destroy: false,
          plan_only: false,
          variables: '[]',
          created_at: at,
        })
        .execute();
      await insertOldSiteAdminToken(db, at);

      await migrate(store);
      const rows = await db.selectFrom('configuration_versions').select(['id', 'status']).orderBy('seq').execute();
      assert.deepEqual(rows, [
        { id: 'cv-older', status: 'uploaded' },
        { id: 'cv-newer', status: 'uploaded' },
      ]);
      assert.equal((await db.selectFrom('runs').select('id').execute()).length, 1);

      const app = await buildApp({ store });
      try {
        const headers = { authorization: 'Bearer old-admin-secret' };
        const download = await app.inject({
          method: 'GET',
          url: '/api/v2/configuration-versions/cv-older/download',
          headers,
        });
        assert.deepEqual(download.rawPayload, kept);
        const archived = await app.inject({
          method: 'POST',
          url: '/api/v2/configuration-versions/cv-older/actions/archive',
          headers,
        });
        assert.equal(archived.statusCode, 202);
        const run = await app.inject({ method: 'GET', url: '/api/v2/runs/run-old', headers });
        assert.equal(run.statusCode, 200);
        // Foreign keys still hold after the rebuild: deleting the workspace takes its versions and runs along.
        const deleted = await app.inject({ method: 'DELETE', url: '/api/v2/workspaces/ws-old', headers });
        assert.equal(deleted.statusCode, 204);
        assert.deepEqual(await db.selectFrom('runs').select('id').execute(), []);
        assert.deepEqual(await db.selectFrom('configuration_versions').select('id').execute(), []);
      } finally {
        await app.close();
      }
    });
  });
});
