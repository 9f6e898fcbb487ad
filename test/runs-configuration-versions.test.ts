import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { buildApp } from '../src/app.js';
import { TestApp } from './support/app.js';
import {
  configArchive,
  createConfigurationVersion,
  createUploadedConfigurationVersion,
  showConfigurationVersion,
  tar,
  tarEntry,
  upload,
} from './support/factories/runs.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

describe(`configuration versions (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    ws = await t.createWorkspace(org);
  });
  after(async () => t.close());

  const downloaded = async (id: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/configuration-versions/${id}/download`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(res.statusCode, 200);
    return res.rawPayload;
  };

  it('creates a pending version with defaults and an absolute, tokenless upload URL', async () => {
    const res = await t.post(`/api/v2/workspaces/${ws}/configuration-versions`, {
      data: { type: 'configuration-versions' },
    });
    expectStatus(res, 201);
    const cv = res.body.data;
    assert.equal(cv.type, 'configuration-versions');
    assert.match(cv.id, /^cv-[A-Za-z0-9]{16}$/);
    assert.deepEqual(cv.attributes, {
      'auto-queue-runs': true,
      error: null,
      'error-message': null,
      provisional: false,
      source: 'tfe-api',
      speculative: false,
      status: 'pending',
      'status-timestamps': {},
      'upload-url': cv.attributes['upload-url'],
    });
    // TestApp sets publicUrl to http://127.0.0.1:1.
    assert.match(cv.attributes['upload-url'], /^http:\/\/127\.0\.0\.1:1\/api\/v2\/uploads\/[A-Za-z0-9]{64}$/);
    assert.deepEqual(cv.relationships, { 'ingress-attributes': { data: null } });
    assert.deepEqual(cv.links, { self: `/api/v2/configuration-versions/${cv.id}` });
  });

  it('takes auto-queue-runs, speculative and provisional, and accepts no body at all', async () => {
    const cv = await createConfigurationVersion(t, ws, {
      'auto-queue-runs': false,
      speculative: true,
      provisional: true,
    });
    assert.equal(cv.attributes['auto-queue-runs'], false);
    assert.equal(cv.attributes.speculative, true);
    assert.equal(cv.attributes.provisional, true);
    const res = await t.request('POST', `/api/v2/workspaces/${ws}/configuration-versions`, {
      contentType: 'application/vnd.api+json',
    });
    expectStatus(res, 201);
    assert.equal(res.body.data.attributes.status, 'pending');
  });

  it('refuses a wrong type or a non-boolean attribute with 422, and an unknown workspace with 404', async () => {
    let res = await t.post(`/api/v2/workspaces/${ws}/configuration-versions`, { data: { type: 'runs' } });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/type');
    res = await t.post(`/api/v2/workspaces/${ws}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes: { speculative: 'yes' } },
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/speculative');
    res = await t.post('/api/v2/workspaces/ws-nope/configuration-versions', {
      data: { type: 'configuration-versions' },
    });
    assert.equal(res.status, 404);
  });

  it('follows the upload flow of go-tfe: PUT raw tar.gz bytes without a token, then the version reads uploaded', async () => {
    const cv = await createConfigurationVersion(t, ws, { 'auto-queue-runs': false });
    const archive = configArchive();
    const res = await upload(t, cv.attributes['upload-url'], archive);
    expectStatus(res, 200);
    assert.equal(res.body, undefined);
    const read = await showConfigurationVersion(t, cv.id);
    expectStatus(read, 200);
    assert.equal(read.body.data.attributes.status, 'uploaded');
    assert.equal(read.body.data.attributes['upload-url'], null);
    assert.match(
      read.body.data.attributes['status-timestamps']['uploaded-at'],
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    assert.equal(read.body.data.links.download, `/api/v2/configuration-versions/${cv.id}/download`);
    // The archive is kept byte for byte.
    const download = await t.app.inject({
      method: 'GET',
      url: read.body.data.links.download,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'application/octet-stream');
    assert.deepEqual(download.rawPayload, archive);
  });

  it('accepts an upload with no content type and one carrying a bearer token', async () => {
    const cv1 = await createConfigurationVersion(t, ws);
    expectStatus(await upload(t, cv1.attributes['upload-url'], configArchive(), {}), 200);
    const cv2 = await createConfigurationVersion(t, ws);
    expectStatus(
      await upload(t, cv2.attributes['upload-url'], configArchive(), {
        'content-type': 'application/octet-stream',
        authorization: 'Bearer whatever',
      }),
      200,
    );
    for (const id of [cv1.id, cv2.id])
      assert.equal((await showConfigurationVersion(t, id)).body.data.attributes.status, 'uploaded');
  });

  it('accepts archives with directories, long contents and several files', async () => {
    const cv = await createConfigurationVersion(t, ws);
    const files = tar({
      'modules/': '',
      'modules/a.tf': 'x'.repeat(5000),
      'main.tf': 'module "a" { source = "./modules" }',
    });
    expectStatus(await upload(t, cv.attributes['upload-url'], gzipSync(files)), 200);
  });

  it('accepts an upload above the 5 MiB limit of JSON bodies, up to 10 MiB', async () => {
    const cv = await createConfigurationVersion(t, ws);
    const archive = gzipSync(tar({ 'blob.bin': randomBytes(8 * 1024 * 1024).toString('latin1') }));
    assert.ok(archive.length > 8 * 1024 * 1024 && archive.length <= 10 * 1024 * 1024);
    expectStatus(await upload(t, cv.attributes['upload-url'], archive), 200);
  });

  it('refuses a body that is not gzip with 422 and marks the version errored', async () => {
    const cv = await createConfigurationVersion(t, ws);
    const res = await upload(t, cv.attributes['upload-url'], tar({ 'main.tf': 'x' }));
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].status, '422');
    assert.match(res.body.errors[0].detail, /not gzip-compressed/);
    const read = (await showConfigurationVersion(t, cv.id)).body.data.attributes;
    assert.equal(read.status, 'errored');
    assert.equal(read.error, 'invalid_archive');
    assert.match(read['error-message'], /not gzip-compressed/);
    assert.match(read['status-timestamps']['errored-at'], /Z$/);
    const download = await t.get(`/api/v2/configuration-versions/${cv.id}/download`);
    assert.equal(download.status, 404);
  });

  it('refuses gzip of something that is not a tar archive, or a damaged or truncated one', async () => {
    const good = tar({ 'main.tf': 'resource "null_resource" "foo" {}' });
    const damaged = Buffer.from(good);
    damaged[0] = 'X'.charCodeAt(0);
    const truncatedEntry = tarEntry('main.tf', 'y'.repeat(2000)).subarray(0, 1024);
    const bodies: Array<[string, Buffer]> = [
      ['text', gzipSync('hello, world')],
      ['empty', gzipSync(Buffer.alloc(0))],
      ['only zero blocks', gzipSync(Buffer.alloc(1024))],
      ['bad checksum', gzipSync(damaged)],
      ['truncated', gzipSync(truncatedEntry)],
      ['broken gzip', gzipSync(good).subarray(0, 20)],
      ['empty body', Buffer.alloc(0)],
    ];
    for (const [name, body] of bodies) {
      const cv = await createConfigurationVersion(t, ws);
      const res = await upload(t, cv.attributes['upload-url'], body);
      assert.equal(res.status, 422, name);
      assert.equal((await showConfigurationVersion(t, cv.id)).body.data.attributes.status, 'errored', name);
    }
  });

  it('refuses an archive that expands past 100 MiB with 422', async () => {
    const cv = await createConfigurationVersion(t, ws);
    const bomb = gzipSync(Buffer.concat([tarEntry('big.bin', Buffer.alloc(100 * 1024 * 1024)), Buffer.alloc(1024)]));
    assert.ok(bomb.length < 1024 * 1024);
    const res = await upload(t, cv.attributes['upload-url'], bomb);
    assert.equal(res.status, 422);
    assert.match(res.body.errors[0].detail, /expands to more than 104857600 bytes/);
    assert.equal((await showConfigurationVersion(t, cv.id)).body.data.attributes.status, 'errored');
  });

  it('refuses an upload over 10 MiB with 413 and marks the version errored', async () => {
    const cv = await createConfigurationVersion(t, ws);
    const res = await upload(t, cv.attributes['upload-url'], Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    assert.equal(res.status, 413);
    assert.equal(res.body.errors[0].status, '413');
    const read = (await showConfigurationVersion(t, cv.id)).body.data.attributes;
    assert.equal(read.status, 'errored');
    assert.equal(read.error, 'archive_too_large');
  });

  it('answers 404 for an unknown, expired or no longer usable credential, and changes nothing', async () => {
    assert.equal((await upload(t, 'http://x/api/v2/uploads/nope', configArchive())).status, 404);

    const failed = await createConfigurationVersion(t, ws);
    assert.equal((await upload(t, failed.attributes['upload-url'], Buffer.from('nope'))).status, 422);
    assert.equal((await upload(t, failed.attributes['upload-url'], configArchive())).status, 404);
    assert.equal((await showConfigurationVersion(t, failed.id)).body.data.attributes.status, 'errored');

    const expired = await createConfigurationVersion(t, ws);
    await t.store.db
      .updateTable('configuration_versions')
      .set({ upload_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expired.id)
      .execute();
    assert.equal((await upload(t, expired.attributes['upload-url'], configArchive())).status, 404);
    assert.equal((await showConfigurationVersion(t, expired.id)).body.data.attributes.status, 'pending');

    const uploadedThenExpired = await createConfigurationVersion(t, ws);
    const kept = configArchive();
    expectStatus(await upload(t, uploadedThenExpired.attributes['upload-url'], kept), 200);
    await t.store.db
      .updateTable('configuration_versions')
      .set({ upload_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', uploadedThenExpired.id)
      .execute();
    assert.equal(
      (await upload(t, uploadedThenExpired.attributes['upload-url'], gzipSync(tar({ 'other.tf': 'x' })))).status,
      404,
    );
    assert.deepEqual(await downloaded(uploadedThenExpired.id), kept);
  });

  it('replaces the archive on each accepted upload to the same URL, until a run uses the version', async () => {
    const w = await t.createWorkspace(org);
    const cv = await createConfigurationVersion(t, w);
    const url = cv.attributes['upload-url'];
    const first = gzipSync(tar({ 'main.tf': 'first' }));
    const second = gzipSync(tar({ 'main.tf': 'second' }));
    expectStatus(await upload(t, url, first), 200);
    assert.deepEqual(await downloaded(cv.id), first);
    expectStatus(await upload(t, url, second), 200);
    assert.deepEqual(await downloaded(cv.id), second);
    assert.equal((await showConfigurationVersion(t, cv.id)).body.data.attributes.status, 'uploaded');

    // A refused upload to an uploaded version keeps its archive and status.
    const refused = await upload(t, url, Buffer.from('not an archive'));
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].status, '422');
    const tooLarge = await upload(t, url, Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    assert.equal(tooLarge.status, 413);
    const read = (await showConfigurationVersion(t, cv.id)).body.data.attributes;
    assert.equal(read.status, 'uploaded');
    assert.equal(read.error, null);
    assert.deepEqual(await downloaded(cv.id), second);

    const run = await t.post('/api/v2/runs', {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: w } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv.id } },
        },
      },
    });
    expectStatus(run, 201);
    assert.equal((await upload(t, url, first)).status, 404);
    assert.deepEqual(await downloaded(cv.id), second);
  });

  it('needs a token for everything but the upload', async () => {
    const cv = await createConfigurationVersion(t, ws);
    assert.equal((await t.get(`/api/v2/configuration-versions/${cv.id}`, { token: null })).status, 401);
    assert.equal(
      (
        await t.post(
          `/api/v2/workspaces/${ws}/configuration-versions`,
          { data: { type: 'configuration-versions' } },
          { token: null },
        )
      ).status,
      401,
    );
    assert.equal((await t.get(`/api/v2/workspaces/${ws}/configuration-versions`, { token: null })).status, 401);
  });

  it('answers 404 for an unknown version', async () => {
    assert.equal((await showConfigurationVersion(t, 'cv-nope')).status, 404);
    assert.equal((await t.get('/api/v2/configuration-versions/cv-nope/download')).status, 404);
    assert.equal((await t.get('/api/v2/workspaces/ws-nope/configuration-versions')).status, 404);
  });

  it('lists a workspace’s versions newest first, paginated', async () => {
    const w = await t.createWorkspace(org);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createConfigurationVersion(t, w)).id);
    let res = await t.get(`/api/v2/workspaces/${w}/configuration-versions`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.data.map((c: any) => c.id),
      [...ids].reverse(),
    );
    assert.equal(res.body.data[0].attributes['upload-url'], null);
    assert.deepEqual(res.body.meta.pagination, {
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 1,
      'total-count': 3,
    });
    res = await t.get(`/api/v2/workspaces/${w}/configuration-versions?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
    assert.deepEqual(
      res.body.data.map((c: any) => c.id),
      [ids[0]],
    );
    assert.equal(res.body.meta.pagination['prev-page'], 1);
    assert.equal(
      res.body.links.first,
      `/api/v2/workspaces/${w}/configuration-versions?page%5Bnumber%5D=1&page%5Bsize%5D=2`,
    );
    res = await t.get(`/api/v2/workspaces/${w}/configuration-versions?page%5Bnumber%5D=9`);
    assert.deepEqual(res.body.data, []);
    assert.equal(res.body.meta.pagination['total-count'], 3);
    assert.equal((await t.get(`/api/v2/workspaces/${w}/configuration-versions?page%5Bsize%5D=0`)).status, 400);
  });

  it('derives the upload URL from the request when no public URL is configured', async () => {
    const app = await buildApp({ store: t.store });
    try {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v2/workspaces/${ws}/configuration-versions`,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/vnd.api+json',
          host: 'varsetd.example:8443',
        },
        payload: JSON.stringify({ data: { type: 'configuration-versions' } }),
      });
      assert.equal(res.statusCode, 201);
      assert.match(
        JSON.parse(res.body).data.attributes['upload-url'],
        /^http:\/\/varsetd\.example:8443\/api\/v2\/uploads\/[A-Za-z0-9]{64}$/,
      );
    } finally {
      await app.close();
    }
  });

  it('keeps the JSON-only body policy on every other route', async () => {
    const res = await t.post(`/api/v2/workspaces/${ws}/configuration-versions`, 'x', {
      contentType: 'application/octet-stream',
    });
    assert.equal(res.status, 415);
  });

  it('removes versions and their archives with the workspace', async () => {
    const w = await t.createWorkspace(org);
    const cvId = await createUploadedConfigurationVersion(t, w);
    await createConfigurationVersion(t, w);
    expectStatus(await t.delete(`/api/v2/workspaces/${w}`), 204);
    assert.equal((await showConfigurationVersion(t, cvId)).status, 404);
    const left = await t.store.db
      .selectFrom('configuration_versions')
      .select('id')
      .where('workspace_id', '=', w)
      .execute();
    assert.deepEqual(left, []);
    const archives = await t.store.db
      .selectFrom('configuration_version_archives')
      .select('configuration_version_id')
      .where('configuration_version_id', '=', cvId)
      .execute();
    assert.deepEqual(archives, []);
  });
});
