import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createVarset, expectRejected, varResource } from './support/factories/varsets.js';
import { ADMIN_TOKEN, expectStatus, type ApiResponse, errorOf } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Input no store can keep, and clients that never finish: a clear JSON:API 4xx, nothing changed, on both stores. */
describe(`bad text and bad URLs (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let varsetId: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    varsetId = (await createVarset(t, org, {})).id;
  });
  after(async () => t.close());

  const NUL = '\u0000';
  const LONE = 'a\ud800b';

  it('refuses a NUL character or a lone surrogate anywhere in a body with 422 at its pointer, changing nothing', async () => {
    const cases: Array<[() => Promise<ApiResponse>, string]> = [
      [
        () =>
          t.post(`/api/v2/organizations/${org}/varsets`, {
            data: { type: 'varsets', attributes: { name: `x${NUL}y` } },
          }),
        '/data/attributes/name',
      ],
      [
        () =>
          t.post(`/api/v2/organizations/${org}/varsets`, {
            data: { type: 'varsets', attributes: { name: 'ok', description: LONE } },
          }),
        '/data/attributes/description',
      ],
      [
        () =>
          t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, {
            data: varResource({ key: 'k', value: `v${NUL}` }),
          }),
        '/data/attributes/value',
      ],
      [
        () =>
          t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, {
            data: varResource({ key: `k${NUL}`, value: 'v' }),
          }),
        '/data/attributes/key',
      ],
      [
        () =>
          t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, { data: varResource({ key: 'k', value: LONE }) }),
        '/data/attributes/value',
      ],
      [
        () =>
          t.post(`/api/v2/varsets/${varsetId}/relationships/workspaces`, {
            data: [{ type: 'workspaces', id: `ws-${NUL}` }],
          }),
        '/data/0/id',
      ],
      [
        () =>
          t.post(`/api/v2/varsets/${varsetId}/relationships/vars`, {
            data: { type: 'vars', attributes: { [`ke${NUL}y`]: 'x' } },
          }),
        `/data/attributes/ke${NUL}y`,
      ],
    ];
    for (const [send, pointer] of cases) {
      const res = await expectRejected(t, org, 422, send);
      assert.equal(errorOf(res).source?.pointer, pointer);
    }
  });

  it('answers a NUL character or a lone surrogate in a query parameter with 400 and in a path id with 404', async () => {
    let res = await t.get(`/api/v2/organizations/${org}/varsets?q=%00`);
    assert.equal(res.status, 400);
    assert.equal(errorOf(res).source?.parameter, 'q');
    for (const path of [
      '/api/v2/varsets/%00',
      `/api/v2/organizations/${org}%00/varsets`,
      `/api/v2/varsets/${varsetId}%00`,
    ]) {
      res = await t.get(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
    }
  });

  it('answers a URL that is not valid percent-encoding with 400 and an over-long path segment with 404, as JSON:API', async () => {
    let res = await t.get('/api/v2/varsets/%ff%fe');
    assert.equal(res.status, 400);
    assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
    assert.equal(res.body.errors[0].status, '400');
    res = await t.get(`/api/v2/varsets/varset-${'a'.repeat(200)}`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
  });
});

/** Raw sockets against a listening server: what Node's HTTP parser and its timeouts answer. */
describe(`slow clients and oversized requests (${storeKind})`, () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  before(async () => {
    t = await TestApp.start();
    app = await buildApp({ store: t.store, timeouts: { requestMs: 1_500, headersMs: 1_000, keepAliveMs: 1_000 } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await app.close();
    await t.close();
  });

  /** Sends `head`, then `trickle` one character every `everyMs`, and collects what comes back until the server closes. */
  function exchange(head: string, trickle = '', everyMs = 300): Promise<{ response: string; elapsedMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1');
      let response = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('connect', () => {
        socket.write(head);
        let i = 0;
        timer = setInterval(() => {
          if (i < trickle.length && !socket.destroyed) socket.write(trickle[i++]!);
        }, everyMs);
      });
      socket.on('data', (chunk) => (response += chunk.toString()));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ response, elapsedMs: Date.now() - started });
      });
      setTimeout(() => reject(new Error(`no answer within 15 s; got ${JSON.stringify(response)}`)), 15_000).unref();
    });
  }

  const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

  it('cuts off a request body trickled a byte at a time with a JSON:API 408', async () => {
    const head = `POST /api/v2/organizations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/vnd.api+json\r\nContent-Length: 200\r\n\r\n`;
    const { response, elapsedMs } = await exchange(head, '{'.repeat(200));
    assert.match(response, /^HTTP\/1\.1 408 /);
    assert.match(response, /content-type: application\/vnd\.api\+json/i);
    assert.equal(bodyOf(response).errors[0].status, '408');
    assert.ok(elapsedMs < 6_000, `took ${elapsedMs} ms`);
  });

  it('cuts off headers trickled a byte at a time, also without a token', async () => {
    const { response, elapsedMs } = await exchange('GET /api/v2/ping HTTP/1.1\r\n', 'X-Slow: '.padEnd(100, 'x'));
    assert.match(response, /^HTTP\/1\.1 408 /);
    assert.ok(elapsedMs < 6_000, `took ${elapsedMs} ms`);
  });

  it('answers a URL over 16 KiB with a JSON:API 431', async () => {
    const { response } = await exchange(
      `GET /api/v2/organizations?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    assert.match(response, /^HTTP\/1\.1 431 /);
    assert.equal(bodyOf(response).errors[0].status, '431');
  });

  it('still serves a request that arrives in time', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v2/ping`);
    assert.equal(res.status, 204);
  });
});

/** `include` puts in `included` only what the caller may read, whatever another caller's read left in the response cache. */
describe(`what include shows (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  it('leaves out the workspaces and projects a team may not read, on a set and on lists', async () => {
    const org = await t.createOrganization();
    const [readable, hidden] = [
      await t.createWorkspace(org, { name: 'readable' }),
      await t.createWorkspace(org, { name: 'hidden' }),
    ];
    const project = await t.createProject(org, 'hidden-project');
    const set = await createVarset(t, org, { workspaces: [readable, hidden], projects: [project] });
    const { teamId, token } = await teamWithToken(t, org);
    await grantWorkspace(t, teamId, readable, { access: 'read' });

    const paths = [
      `/api/v2/varsets/${set.id}`,
      `/api/v2/workspaces/${readable}/varsets`,
      `/api/v2/organizations/${org}/varsets`,
    ];
    for (const path of paths) {
      const url = `${path}?include=workspaces,projects`;
      // The owners' view first, so that a shared rendering would be in the cache.
      const full = await t.get(url);
      expectStatus(full, 200);
      assert.deepEqual(
        full.body.included.map((r: { id: string }) => r.id).sort(),
        [readable, hidden, project].sort(),
        path,
      );
      const team = await t.get(url, { token });
      expectStatus(team, 200);
      assert.deepEqual(
        team.body.included.map((r: { id: string }) => r.id),
        [readable],
        path,
      );
      const data = Array.isArray(team.body.data) ? team.body.data[0] : team.body.data;
      assert.equal(data.attributes['workspace-count'], 2, path);
      assert.ok(!JSON.stringify(team.body).includes('hidden-project'), path);
      assert.ok(!JSON.stringify(team.body.included).includes('"hidden"'), path);
    }
  });
});
