import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { configArchive } from './support/factories/runs.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** The upload URL must be absolute and usable as is: these tests talk to a listening server over real HTTP. */
describe(`configuration version upload over HTTP (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;
  let app: FastifyInstance;
  let base: string;

  before(async () => {
    testStore = await createTestStore();
    store = await openStore(testStore);
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    app = await buildApp({ store });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
    await store.close();
    await testStore.dispose();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/vnd.api+json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };

  const setUp = async () => {
    const org = (
      await api('POST', '/organizations', {
        data: {
          type: 'organizations',
          attributes: { name: `org-${Date.now()}${Math.random().toString(36).slice(2, 6)}`, email: 'a@example.com' },
        },
      })
    ).body.data.id;
    const ws = (
      await api('POST', `/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'ws' } },
      })
    ).body.data.id;
    const cv = await api('POST', `/workspaces/${ws}/configuration-versions`, {
      data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
    });
    assert.equal(cv.status, 201);
    return { ws, cv: cv.body.data };
  };

  it('creates a version, uploads to its URL without a token, polls until uploaded, runs and comments', async () => {
    const { ws, cv } = await setUp();
    const uploadUrl: string = cv.attributes['upload-url'];
    assert.ok(uploadUrl.startsWith(`${base}/api/v2/uploads/`), uploadUrl);

    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', accept: 'application/json, */*', 'user-agent': 'go-tfe' },
      body: new Uint8Array(configArchive()),
    });
    assert.equal(put.status, 200);
    assert.equal(await put.text(), '');

    const read = await api('GET', `/configuration-versions/${cv.id}`);
    assert.equal(read.body.data.attributes.status, 'uploaded');

    const run = await api('POST', '/runs', {
      data: {
        type: 'runs',
        relationships: {
          'configuration-version': { data: { type: 'configuration-versions', id: cv.id } },
          workspace: { data: { type: 'workspaces', id: ws } },
        },
      },
    });
    assert.equal(run.status, 201);
    const comment = await api('POST', `/runs/${run.body.data.id}/comments`, {
      data: { type: 'comments', attributes: { body: '1st comment test' } },
    });
    assert.equal(comment.status, 201);
    const list = await api('GET', `/runs/${run.body.data.id}/comments`);
    assert.deepEqual(
      list.body.data.map((c: any) => c.attributes.body),
      ['1st comment test'],
    );
    assert.equal((await api('DELETE', `/workspaces/${ws}`)).status, 204);
  });

  it('answers 413 to a streamed upload without a length that grows past the limit, and the connection still answers', async () => {
    const { cv } = await setUp();
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const put = await fetch(cv.attributes['upload-url'], {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(put.status, 413);
    assert.equal((await put.json()).errors[0].status, '413');
    const read = await api('GET', `/configuration-versions/${cv.id}`);
    assert.equal(read.body.data.attributes.status, 'errored');
  });

  it('answers 413 to an upload whose declared length is over the limit', async () => {
    const { cv } = await setUp();
    const put = await fetch(cv.attributes['upload-url'], {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(11 * 1024 * 1024),
    });
    assert.equal(put.status, 413);
    await put.arrayBuffer();
    assert.equal(
      (await api('GET', `/configuration-versions/${cv.id}`)).body.data.attributes.error,
      'archive_too_large',
    );
  });
});
