import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const binding = (key: string, value?: string) => ({
  type: 'tag-bindings',
  attributes: { key, ...(value === undefined ? {} : { value }) },
});
const keyValues = (data: any[]) => data.map((b) => [b.attributes.key, b.attributes.value]);

describe(`workspace tags, tag bindings and remote state consumers (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  it('tags a workspace by name on create and later, by name or id, lists and removes its tags', async () => {
    const res = await t.post(`/api/v2/organizations/${org}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: { name: 'tagged' },
        relationships: { tags: { data: [{ type: 'tags', attributes: { name: 'web' } }] } },
      },
    });
    expectStatus(res, 201);
    const id = res.body.data.id;
    assert.deepEqual(res.body.data.attributes['tag-names'], ['web']);
    expectStatus(
      await t.post(`/api/v2/workspaces/${id}/relationships/tags`, {
        data: [
          { type: 'tags', attributes: { name: 'prod' } },
          { type: 'tags', attributes: { name: 'web' } },
        ],
      }),
      204,
    );
    const other = await t.createWorkspace(org);
    const tags = await t.get(`/api/v2/workspaces/${id}/relationships/tags`);
    assert.deepEqual(
      tags.body.data.map((tag: any) => tag.attributes.name),
      ['prod', 'web'],
    );
    const prod = tags.body.data[0].id;
    expectStatus(
      await t.post(`/api/v2/workspaces/${other}/relationships/tags`, { data: [{ type: 'tags', id: prod }] }),
      204,
    );
    assert.deepEqual((await t.get(`/api/v2/workspaces/${other}`)).body.data.attributes['tag-names'], ['prod']);

    const organizationTags = await t.get(`/api/v2/organizations/${org}/tags`);
    assert.deepEqual(
      organizationTags.body.data.map((tag: any) => [tag.attributes.name, tag.attributes['instance-count']]),
      [
        ['prod', 2],
        ['web', 1],
      ],
    );

    expectStatus(
      await t.delete(`/api/v2/workspaces/${id}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: 'web' } }],
      }),
      204,
    );
    assert.deepEqual((await t.get(`/api/v2/workspaces/${id}`)).body.data.attributes['tag-names'], ['prod']);

    const bad = await t.post(`/api/v2/workspaces/${id}/relationships/tags`, {
      data: [{ type: 'tags', attributes: { name: 'Not Valid' } }],
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].source.pointer, '/data/0/attributes/name');

    const updated = await t.patch(`/api/v2/workspaces/${id}`, {
      data: { type: 'workspaces', relationships: { tags: { data: [{ type: 'tags', attributes: { name: 'api' } }] } } },
    });
    assert.deepEqual(updated.body.data.attributes['tag-names'], ['api', 'prod'], 'an update adds the tags it names');
  });

  it('keeps key/value bindings of workspaces and projects: replaced on create and update, added by PATCH, at most 10', async () => {
    const project = await t.createProject(org, 'tagged-project');
    const created = await t.post(`/api/v2/organizations/${org}/projects`, {
      data: {
        type: 'projects',
        attributes: { name: 'bound' },
        relationships: { 'tag-bindings': { data: [binding('team', 'platform'), binding('env', 'prod')] } },
      },
    });
    expectStatus(created, 201);
    assert.deepEqual(keyValues((await t.get(`/api/v2/projects/${created.body.data.id}/tag-bindings`)).body.data), [
      ['team', 'platform'],
      ['env', 'prod'],
    ]);

    const ws = await t.post(`/api/v2/organizations/${org}/workspaces`, {
      data: {
        type: 'workspaces',
        attributes: { name: 'bound' },
        relationships: {
          project: { data: { type: 'projects', id: created.body.data.id } },
          'tag-bindings': { data: [binding('env', 'dev'), binding('tier')] },
        },
      },
    });
    expectStatus(ws, 201);
    const id = ws.body.data.id;
    assert.deepEqual(keyValues((await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data), [
      ['env', 'dev'],
      ['tier', ''],
    ]);

    const effective = await t.get(`/api/v2/workspaces/${id}/effective-tag-bindings`);
    assert.deepEqual(
      effective.body.data.map((b: any) => [b.attributes.key, b.attributes.value, b.links?.['inherited-from'] ?? null]),
      [
        ['env', 'dev', null],
        ['tier', '', null],
        ['team', 'platform', { id: created.body.data.id, type: 'projects' }],
      ],
      'the workspace’s own value wins over its project’s',
    );

    const added = await t.patch(`/api/v2/workspaces/${id}/tag-bindings`, {
      data: [binding('tier', 'gold'), binding('owner', 'ops')],
    });
    expectStatus(added, 200);
    assert.deepEqual(keyValues(added.body.data), [
      ['tier', 'gold'],
      ['owner', 'ops'],
    ]);
    assert.deepEqual(keyValues((await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data), [
      ['env', 'dev'],
      ['tier', 'gold'],
      ['owner', 'ops'],
    ]);
    const idsBefore = (await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data.map((b: { id: string }) => b.id);
    const changedTwo = await t.patch(`/api/v2/workspaces/${id}/tag-bindings`, {
      data: [binding('owner', 'sre'), binding('env', 'stage')],
    });
    expectStatus(changedTwo, 200);
    assert.deepEqual(keyValues(changedTwo.body.data), [
      ['owner', 'sre'],
      ['env', 'stage'],
    ]);
    const afterTwo = (await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data;
    assert.deepEqual(
      keyValues(afterTwo),
      [
        ['env', 'stage'],
        ['tier', 'gold'],
        ['owner', 'sre'],
      ],
      'each binding takes its own new value, the others keep theirs',
    );
    assert.deepEqual(
      afterTwo.map((b: { id: string }) => b.id),
      idsBefore,
      'a changed value keeps its binding',
    );
    assert.deepEqual(
      changedTwo.body.data.map((b: { id: string }) => b.id),
      [idsBefore[2], idsBefore[0]],
    );

    const tooMany = await t.patch(`/api/v2/workspaces/${id}/tag-bindings`, {
      data: Array.from({ length: 8 }, (_, i) => binding(`k${i}`, 'v')),
    });
    assert.equal(tooMany.status, 422);
    assert.equal(
      (await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data.length,
      3,
      'nothing of a refused request is kept',
    );
    const badKey = await t.patch(`/api/v2/projects/${project}/tag-bindings`, {
      data: [binding('ok', 'v'), binding('no!', 'v')],
    });
    assert.equal(badKey.status, 422);
    assert.equal(badKey.body.errors[0].source.pointer, '/data/1/attributes/key');

    // DELETE all: an update with an empty list, as go-tfe sends it.
    expectStatus(
      await t.patch(`/api/v2/workspaces/${id}`, {
        data: { type: 'workspaces', relationships: { 'tag-bindings': { data: [] } } },
      }),
      200,
    );
    assert.deepEqual((await t.get(`/api/v2/workspaces/${id}/tag-bindings`)).body.data, []);
    expectStatus(
      await t.patch(`/api/v2/projects/${created.body.data.id}`, {
        data: { type: 'projects', relationships: { 'tag-bindings': { data: [] } } },
      }),
      200,
    );
    assert.deepEqual((await t.get(`/api/v2/projects/${created.body.data.id}/effective-tag-bindings`)).body.data, []);
    assert.deepEqual((await t.get(`/api/v2/workspaces/${id}/effective-tag-bindings`)).body.data, []);
  });

  it('includes a project’s effective tag bindings on a read and a list, and refuses any other include', async () => {
    const o = await t.createOrganization();
    const created = await t.post(`/api/v2/organizations/${o}/projects`, {
      data: {
        type: 'projects',
        attributes: { name: 'bound' },
        relationships: { 'tag-bindings': { data: [binding('team', 'platform'), binding('env', 'prod')] } },
      },
    });
    expectStatus(created, 201);
    const id = created.body.data.id;
    const plain = await t.get(`/api/v2/projects/${id}`);
    expectStatus(plain, 200);
    assert.equal(plain.body.included, undefined);
    assert.deepEqual(plain.body.data.relationships['tag-bindings'], {
      links: { related: `/api/v2/projects/${id}/tag-bindings` },
    });
    assert.deepEqual(plain.body.data.relationships['effective-tag-bindings'], {
      links: { related: `/api/v2/projects/${id}/effective-tag-bindings` },
    });

    const read = await t.get(`/api/v2/projects/${id}?include=effective_tag_bindings`);
    expectStatus(read, 200);
    const effective = (await t.get(`/api/v2/projects/${id}/effective-tag-bindings`)).body.data;
    assert.deepEqual(read.body.included, effective);
    assert.deepEqual(keyValues(read.body.included), [
      ['team', 'platform'],
      ['env', 'prod'],
    ]);
    assert.ok(read.body.included.every((b: any) => b.type === 'effective-tag-bindings' && b.links === undefined));
    assert.deepEqual(
      read.body.data.relationships['effective-tag-bindings'].data,
      effective.map((b: any) => ({ id: b.id, type: 'effective-tag-bindings' })),
    );

    const listed = await t.get(`/api/v2/organizations/${o}/projects?include=effective_tag_bindings`);
    expectStatus(listed, 200);
    const byName = new Map(listed.body.data.map((p: any) => [p.attributes.name, p]));
    assert.deepEqual((byName.get('Default Project') as any).relationships['effective-tag-bindings'].data, []);
    assert.deepEqual(
      (byName.get('bound') as any).relationships['effective-tag-bindings'].data,
      read.body.data.relationships['effective-tag-bindings'].data,
    );
    assert.deepEqual(listed.body.included, effective);

    for (const url of [
      `/api/v2/projects/${id}?include=organization`,
      `/api/v2/organizations/${o}/projects?include=effective_tag_bindings,workspaces`,
    ]) {
      const refused = await t.get(url);
      assert.equal(refused.status, 400, url);
      assert.equal(refused.body.errors[0].source.parameter, 'include');
    }
    assert.equal((await t.get(`/api/v2/projects/${id}?other=1`)).status, 400);
  });

  it('reads bindings with the workspace and changes them only with the right to update it', async () => {
    const id = await t.createWorkspace(org);
    const reader = await teamWithToken(t, org);
    await grantWorkspace(t, reader.teamId, id, { access: 'read' });
    expectStatus(await t.get(`/api/v2/workspaces/${id}/tag-bindings`, { token: reader.token }), 200);
    assert.equal(
      (await t.patch(`/api/v2/workspaces/${id}/tag-bindings`, { data: [binding('a', 'b')] }, { token: reader.token }))
        .status,
      404,
    );
    const stranger = await teamWithToken(t, org);
    assert.equal(
      (await t.get(`/api/v2/workspaces/${id}/effective-tag-bindings`, { token: stranger.token })).status,
      404,
    );
  });

  it('keeps the remote state consumers of a workspace: add, remove, replace and list', async () => {
    const producer = await t.createWorkspace(org, { name: 'producer' });
    const [a, b, c] = [
      await t.createWorkspace(org, { name: 'consumer-a' }),
      await t.createWorkspace(org, { name: 'consumer-b' }),
      await t.createWorkspace(org, { name: 'consumer-c' }),
    ];
    const path = `/api/v2/workspaces/${producer}/relationships/remote-state-consumers`;
    const list = async () => (await t.get(path)).body.data.map((w: any) => w.attributes.name);
    const ref = (id: string) => ({ type: 'workspaces', id });
    expectStatus(await t.post(path, { data: [ref(a), ref(b)] }), 204);
    assert.deepEqual(await list(), ['consumer-a', 'consumer-b']);
    expectStatus(await t.delete(path, { data: [ref(a)] }), 204);
    assert.deepEqual(await list(), ['consumer-b']);
    expectStatus(await t.patch(path, { data: [ref(c)] }), 204);
    assert.deepEqual(await list(), ['consumer-c']);

    const elsewhere = await t.createWorkspace(await t.createOrganization());
    const refused = await t.post(path, { data: [ref(c), ref(elsewhere)] });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.errors[0].source.pointer, '/data/1/id');
    assert.equal((await t.post(path, { data: [] })).status, 422);
    assert.deepEqual(await list(), ['consumer-c']);

    // The list is kept whatever global-remote-state says.
    expectStatus(
      await t.patch(`/api/v2/workspaces/${producer}`, {
        data: { type: 'workspaces', attributes: { 'global-remote-state': true } },
      }),
      200,
    );
    assert.deepEqual(await list(), ['consumer-c']);
    // A deleted consumer leaves the list.
    expectStatus(await t.delete(`/api/v2/workspaces/${c}`), 204);
    assert.deepEqual(await list(), []);
  });
});
