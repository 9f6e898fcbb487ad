import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashToken } from '../src/auth/tokens.js';
import { TestApp } from './support/app.js';
import { NON_WRITE_CASES, WRITE_CASES } from './support/audit-write-cases.js';
import { ownersTeam } from './support/factories/access.js';
import { organizationId } from './support/factories/audit.js';
import { configArchive, createConfigurationVersion, upload } from './support/factories/runs.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Every write of the API leaves exactly one event in its organization's audit trail, in the write's transaction. */

describe(`audit trail: every write is recorded (${storeKind})`, () => {
  let t: TestApp;
  let adminTokenId: string;

  before(async () => {
    t = await TestApp.start();
    adminTokenId = (
      await t.store.db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirstOrThrow()
    ).id;
  });
  after(() => t.close());

  const allEvents = () => t.store.db.selectFrom('audit_events').selectAll().execute();
  const eventIds = async () => new Set((await allEvents()).map((e) => e.id));
  async function newEvents(before: Set<string>) {
    return (await allEvents()).filter((e) => !before.has(e.id));
  }

  it('has a case for every write route the app registers, and none for a route it does not', async () => {
    const document = (await t.get('/api/v2/openapi.json')).body;
    const writes = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) =>
        Object.keys(operations)
          .filter((method) => !['get', 'head', 'options'].includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.ok(writes.length > 50, `only ${writes.length} write routes found: is the OpenAPI document complete?`);
    const cases = [...Object.keys(WRITE_CASES), ...Object.keys(NON_WRITE_CASES)];
    assert.deepEqual(
      writes.filter((route) => !cases.includes(route)),
      [],
      'write routes without a case',
    );
    assert.deepEqual(
      cases.filter((route) => !writes.includes(route)),
      [],
      'cases for routes the app does not have',
    );
  });

  for (const [route, prepare] of Object.entries(WRITE_CASES)) {
    it(`${route} records one event`, async () => {
      const org = await t.createOrganization();
      const scene = { t, org, orgId: await organizationId(t, org) };
      const write = await prepare(scene);
      const before = await eventIds();
      const res: ApiResponse = write.send
        ? await write.send()
        : await t.request(write.method, write.url, write.body === undefined ? {} : { body: write.body });
      assert.ok(res.status >= 200 && res.status < 300, `${route}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      const expected = await write.event(res);
      const events = await newEvents(before);
      assert.equal(events.length, 1, `${route} recorded ${JSON.stringify(events)}`);
      const [event] = events;
      assert.deepEqual(
        {
          type: event!.resource_type,
          id: event!.resource_id,
          action: event!.action,
          organization: event!.organization_id,
        },
        {
          type: expected.type,
          id: expected.id,
          action: expected.action,
          organization: expected.organizationId ?? scene.orgId,
        },
      );
      const accessor = write.accessor ?? {
        id: adminTokenId,
        description: 'site administrator (token "site-admin token from VARSETD_ADMIN_TOKEN")',
      };
      assert.deepEqual(
        { id: event!.accessor_id, description: event!.auth_description, type: event!.auth_type },
        { ...accessor, type: 'Client' },
      );
      assert.match(
        String(res.headers['x-request-id']),
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      assert.equal(event!.request_id, res.headers['x-request-id']);

      // The trail answers it, unless its organization is gone.
      if (expected.action === 'destroy' && expected.type === 'organization') return;
      const orgName = route === 'POST /api/v2/organizations' ? (write.body as any).data.attributes.name : org;
      const trail = await t.get(`/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${orgName}`);
      expectStatus(trail, 200);
      assert.equal(trail.body.data[0].id, event!.id, 'the newest event comes first');
    });
  }

  for (const [route, prepare] of Object.entries(NON_WRITE_CASES)) {
    it(`${route} changes nothing, and records nothing`, async () => {
      const org = await t.createOrganization();
      const request = await prepare({ t, org, orgId: await organizationId(t, org) });
      const before = await eventIds();
      expectStatus(await t.request(request.method, request.url, { body: request.body }), 200);
      assert.deepEqual(await newEvents(before), []);
    });
  }

  it('records nothing for a write that fails', async () => {
    const org = await t.createOrganization();
    const ws = await t.createWorkspace(org, { name: 'taken' });
    expectStatus(await t.post(`/api/v2/workspaces/${ws}/actions/lock`, {}), 200);
    const before = await eventIds();
    const failures: [string, Promise<ApiResponse>, number][] = [
      [
        'a taken name',
        t.post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name: 'taken' } },
        }),
        422,
      ],
      [
        'a missing workspace',
        t.patch('/api/v2/workspaces/ws-missing', { data: { type: 'workspaces', attributes: { description: 'd' } } }),
        404,
      ],
      ['a second lock', t.post(`/api/v2/workspaces/${ws}/actions/lock`, {}), 409],
      ['a locked workspace safe-deleted', t.post(`/api/v2/workspaces/${ws}/actions/safe-delete`), 409],
      [
        'a variable without a key',
        t.post(`/api/v2/workspaces/${ws}/vars`, {
          data: { type: 'vars', attributes: { value: 'v', category: 'env' } },
        }),
        422,
      ],
      ['a missing variable deleted', t.delete(`/api/v2/workspaces/${ws}/vars/var-missing`), 404],
      [
        'a run without a configuration',
        t.post('/api/v2/runs', {
          data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
        }),
        422,
      ],
      [
        'an unknown upload URL',
        t.put('/api/v2/uploads/not-a-secret', 'x', { contentType: 'application/octet-stream', token: null }),
        404,
      ],
    ];
    for (const [what, response, status] of failures) assert.equal((await response).status, status, what);
    assert.deepEqual(await newEvents(before), []);
  });

  it('names the token that wrote: its id and who it stands for', async () => {
    const org = await t.createOrganization();
    const owners = await ownersTeam(t, org);
    const created = await t.post(`/api/v2/teams/${owners}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: { description: 'CI' } },
    });
    expectStatus(created, 201);
    const orgToken = await t.post(`/api/v2/organizations/${org}/authentication-token`, {
      data: { type: 'authentication-tokens' },
    });
    expectStatus(orgToken, 201);
    const writers = [
      { token: created.body.data.attributes.token, id: created.body.data.id, description: 'team owners (token "CI")' },
      { token: orgToken.body.data.attributes.token, id: orgToken.body.data.id, description: `organization ${org}` },
    ];
    for (const writer of writers) {
      const before = await eventIds();
      const res = await t.post(
        `/api/v2/organizations/${org}/projects`,
        { data: { type: 'projects', attributes: { name: `by-${writer.id}` } } },
        { token: writer.token },
      );
      expectStatus(res, 201);
      const [event, ...more] = await newEvents(before);
      assert.equal(more.length, 0);
      assert.deepEqual(
        [event!.accessor_id, event!.auth_description, event!.organization_id],
        [writer.id, writer.description, await organizationId(t, org)],
      );
    }
  });

  it('keeps no secret: no token, upload secret or hash of one, no variable value', async () => {
    const org = await t.createOrganization();
    const before = await eventIds();
    const owners = await ownersTeam(t, org);
    const secrets: string[] = [];
    for (const url of [
      `/api/v2/teams/${owners}/authentication-token`,
      `/api/v2/teams/${owners}/authentication-tokens`,
      `/api/v2/organizations/${org}/authentication-token`,
    ]) {
      const res = await t.post(url, { data: { type: 'authentication-tokens', attributes: { description: 'deploy' } } });
      expectStatus(res, 201);
      secrets.push(res.body.data.attributes.token);
    }
    const ws = await t.createWorkspace(org);
    for (const sensitive of [true, false]) {
      const value = `value-${sensitive}-${Date.now()}`;
      secrets.push(value);
      const created = await t.post(`/api/v2/workspaces/${ws}/vars`, {
        data: { type: 'vars', attributes: { key: `K${sensitive}`, value, category: 'env', sensitive } },
      });
      expectStatus(created, 201);
      const changed = `changed-${value}`;
      secrets.push(changed);
      expectStatus(
        await t.patch(`/api/v2/workspaces/${ws}/vars/${created.body.data.id}`, {
          data: { type: 'vars', attributes: { value: changed } },
        }),
        200,
      );
    }
    const set = await t.post(`/api/v2/organizations/${org}/varsets`, {
      data: {
        type: 'varsets',
        attributes: { name: 'creds', global: false },
        relationships: {
          vars: {
            data: [
              {
                type: 'vars',
                attributes: { key: 'password', value: 'hunter2-in-a-set', category: 'terraform', sensitive: true },
              },
            ],
          },
        },
      },
    });
    expectStatus(set, 200);
    secrets.push('hunter2-in-a-set');
    const cv = await createConfigurationVersion(t, ws);
    const uploadSecret = new URL(cv.attributes['upload-url']).pathname.split('/').pop()!;
    secrets.push(uploadSecret);
    expectStatus(await upload(t, cv.attributes['upload-url'], configArchive()), 200);

    const recorded = JSON.stringify(await newEvents(before));
    assert.ok(recorded.includes('"var"') && recorded.includes('authentication_token'), 'the writes were recorded');
    for (const secret of secrets) {
      assert.ok(!recorded.includes(secret), `an event holds ${secret}`);
      assert.ok(!recorded.includes(hashToken(secret)), `an event holds the hash of ${secret}`);
    }
  });

  it('records every one of many concurrent writes of one organization, and counts them', async () => {
    const org = await t.createOrganization();
    const workspaces = await Promise.all([1, 2, 3, 4, 5].map(() => t.createWorkspace(org)));
    const variable = async (ws: string, key: string) =>
      (
        await t.post(`/api/v2/workspaces/${ws}/vars`, {
          data: { type: 'vars', attributes: { key, value: 'v', category: 'env' } },
        })
      ).body.data.id;
    const changed = await Promise.all(workspaces.map((ws) => variable(ws, 'CHANGED')));
    const deleted = await Promise.all(workspaces.map((ws) => variable(ws, 'DELETED')));
    const trail = `/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}`;
    const before = (await t.get(trail)).body.pagination.total_count;
    const writes = workspaces.flatMap((ws, i) => [
      t.post(`/api/v2/workspaces/${ws}/actions/lock`, {}),
      t.patch(`/api/v2/workspaces/${ws}/vars/${changed[i]}`, { data: { type: 'vars', attributes: { value: 'w' } } }),
      t.post(`/api/v2/organizations/${org}/projects`, { data: { type: 'projects', attributes: { name: `p${i}` } } }),
      t.delete(`/api/v2/workspaces/${ws}/vars/${deleted[i]}`),
    ]);
    const statuses = (await Promise.all(writes)).map((res) => res.status);
    assert.ok(
      statuses.every((status) => status >= 200 && status < 300),
      `statuses ${statuses.join()}`,
    );
    const after = (await t.get(trail)).body;
    assert.equal(after.pagination.total_count, Number(before) + writes.length);
  });
});
