import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import {
  assign,
  createVar,
  createVarset,
  expectRejected,
  identifiers,
  ids,
  postVarset,
  uniqueName,
  varsetBody,
} from './support/factories/varsets.js';
import { expectStatus, errorOf } from './support/requests.js';
import { storeKind } from './support/store.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe(`variable sets (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  describe('create', () => {
    it('answers 200 with defaults and every relationship, without included', async () => {
      const res = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: { type: 'varsets', attributes: { name: 'defaults' } },
      });
      expectStatus(res, 200);
      const set = res.body.data;
      assert.match(set.id, /^varset-[A-Za-z0-9]{16}$/);
      assert.equal(set.type, 'varsets');
      const { 'updated-at': updatedAt, ...attributes } = set.attributes;
      assert.match(updatedAt, TIMESTAMP);
      assert.deepEqual(attributes, {
        name: 'defaults',
        description: '',
        global: false,
        priority: false,
        'var-count': 0,
        'workspace-count': 0,
        'project-count': 0,
        permissions: { 'can-update': true },
      });
      assert.deepEqual(set.relationships, {
        organization: { data: { type: 'organizations', id: org } },
        parent: { data: { type: 'organizations', id: org } },
        workspaces: { data: [] },
        projects: { data: [] },
        vars: { data: [] },
      });
      assert.equal(set.links.self, `/api/v2/varsets/${set.id}`);
      assert.equal(res.body.included, undefined);
    });

    it('takes attributes, assignments and variables; vars members carry their attributes, sensitive values hidden', async () => {
      const ws = await t.createWorkspace(org);
      const prj = await t.createProject(org);
      const res = await postVarset(t, org, {
        attributes: { name: 'full', description: 'all of it', global: false, priority: true },
        workspaces: [ws],
        projects: [prj],
        vars: [
          { key: 'region', value: 'eu', description: 'where', hcl: false },
          { key: 'TOKEN', value: 'secret', category: 'env', sensitive: true },
        ],
      });
      expectStatus(res, 200);
      const set = res.body.data;
      assert.equal(set.attributes.description, 'all of it');
      assert.equal(set.attributes.priority, true);
      assert.equal(set.attributes['var-count'], 2);
      assert.equal(set.attributes['workspace-count'], 1);
      assert.equal(set.attributes['project-count'], 1);
      assert.deepEqual(set.relationships.workspaces.data, [{ id: ws, type: 'workspaces' }]);
      assert.deepEqual(set.relationships.projects.data, [{ id: prj, type: 'projects' }]);
      const vars = set.relationships.vars.data;
      assert.equal(vars.length, 2);
      const token = vars.find((v: any) => v.attributes.key === 'TOKEN');
      assert.equal(token.type, 'vars');
      assert.equal(token.attributes.value, null);
      assert.equal(token.attributes.sensitive, true);
      assert.equal(token.attributes.category, 'env');
      const region = vars.find((v: any) => v.attributes.key === 'region');
      assert.deepEqual(
        [region.attributes.value, region.attributes.category, region.attributes.description],
        ['eu', 'terraform', 'where'],
      );
    });

    it('accepts a parent naming its own organization', async () => {
      const set = await createVarset(t, org, { parent: { type: 'organizations', id: org } });
      assert.deepEqual(set.relationships.parent.data, { type: 'organizations', id: org });
    });

    it('answers 404 for an unknown organization', async () => {
      const res = await postVarset(t, 'no-such-org');
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { errors: [{ status: '404', title: 'not found' }] });
    });

    it('requires a name of at most 128 characters, unique within the organization', async () => {
      const taken = uniqueName();
      await createVarset(t, org, { attributes: { name: taken } });
      for (const [attributes, detail] of [
        [{}, "name can't be blank"],
        [{ name: '' }, "name can't be blank"],
        [{ name: 'x'.repeat(129) }, 'name is too long (maximum is 128 characters)'],
        [{ name: taken }, 'Name has already been taken'],
      ] as const) {
        const res = await expectRejected(t, org, 422, () =>
          t.post(`/api/v2/organizations/${org}/varsets`, varsetBody({ attributes })),
        );
        assert.deepEqual(errorOf(res).source, { pointer: '/data/attributes/name' });
        assert.equal(errorOf(res).detail, detail);
      }
      await createVarset(t, org, { attributes: { name: 'y'.repeat(128) } });
      const other = await t.createOrganization();
      await createVarset(t, other, { attributes: { name: taken } });
    });

    it('refuses a wrong data.type, wrong attribute types and a malformed document with 422', async () => {
      const cases: [unknown, string][] = [
        [{ data: { type: 'vars', attributes: { name: 'x' } } }, '/data/type'],
        [{ data: [{ type: 'varsets' }] }, '/data'],
        [{}, '/data'],
        [{ data: { type: 'varsets', attributes: { name: 5 } } }, '/data/attributes/name'],
        [{ data: { type: 'varsets', attributes: { name: 'x', global: 'true' } } }, '/data/attributes/global'],
        [{ data: { type: 'varsets', attributes: { name: 'x', priority: 1 } } }, '/data/attributes/priority'],
        [{ data: { type: 'varsets', attributes: { name: 'x', description: ['a'] } } }, '/data/attributes/description'],
        [
          { data: { type: 'varsets', attributes: { name: 'x', description: 'd'.repeat(513) } } },
          '/data/attributes/description',
        ],
        [{ data: { type: 'varsets', attributes: 'x' } }, '/data/attributes'],
        [
          {
            data: {
              type: 'varsets',
              attributes: { name: 'x' },
              relationships: { workspaces: { data: [{ type: 'projects', id: 'prj-1' }] } },
            },
          },
          '/data/relationships/workspaces/data/0/type',
        ],
        [
          { data: { type: 'varsets', attributes: { name: 'x' }, relationships: { workspaces: [] } } },
          '/data/relationships/workspaces',
        ],
        [
          { data: { type: 'varsets', attributes: { name: 'x' }, relationships: { projects: { data: {} } } } },
          '/data/relationships/projects/data',
        ],
        [
          {
            data: {
              type: 'varsets',
              attributes: { name: 'x' },
              relationships: { vars: { data: [{ type: 'variables', attributes: { key: 'k', category: 'env' } }] } },
            },
          },
          '/data/relationships/vars/data/0/type',
        ],
        [
          {
            data: {
              type: 'varsets',
              attributes: { name: 'x' },
              relationships: { vars: { data: [{ type: 'vars', attributes: { category: 'env' } }] } },
            },
          },
          '/data/relationships/vars/data/0/attributes/key',
        ],
        [
          {
            data: {
              type: 'varsets',
              attributes: { name: 'x' },
              relationships: { vars: { data: [{ type: 'vars', attributes: { key: 'k' } }] } },
            },
          },
          '/data/relationships/vars/data/0/attributes/category',
        ],
        [
          { data: { type: 'varsets', attributes: { name: 'x' }, relationships: { vars: { data: { type: 'vars' } } } } },
          '/data/relationships/vars/data',
        ],
        [
          {
            data: {
              type: 'varsets',
              attributes: { name: 'x' },
              relationships: { parent: { data: { type: 'workspaces', id: 'ws-1' } } },
            },
          },
          '/data/relationships/parent/data/type',
        ],
      ];
      for (const [body, pointer] of cases) {
        const res = await expectRejected(t, org, 422, () => t.post(`/api/v2/organizations/${org}/varsets`, body));
        assert.equal(errorOf(res).source?.pointer, pointer, JSON.stringify(body));
      }
    });

    it('refuses two variables with the same key and category in the body', async () => {
      const res = await expectRejected(t, org, 422, () =>
        postVarset(t, org, {
          vars: [{ key: 'dup', category: 'env' }, { key: 'other' }, { key: 'dup', category: 'env' }],
        }),
      );
      assert.equal(errorOf(res).detail, 'Key has already been taken');
      assert.equal(errorOf(res).source?.pointer, '/data/relationships/vars/data/2/attributes/key');
      await createVarset(t, org, {
        vars: [
          { key: 'dup', category: 'env' },
          { key: 'dup', category: 'terraform' },
        ],
      });
    });

    it('answers 404 for unknown workspaces, projects or parent, and for those of another organization', async () => {
      const other = await t.createOrganization();
      const foreignWs = await t.createWorkspace(other);
      const foreignPrj = await t.createProject(other);
      const ws = await t.createWorkspace(org);
      for (const body of [
        { workspaces: [ws, 'ws-doesnotexist0000'] },
        { workspaces: [foreignWs] },
        { projects: ['prj-doesnotexist000'] },
        { projects: [foreignPrj] },
        { parent: { type: 'projects', id: foreignPrj } },
        { parent: { type: 'projects', id: 'nonexisting' } },
        { parent: { type: 'organizations', id: other } },
      ]) {
        await expectRejected(t, org, 404, () => postVarset(t, org, body));
      }
    });
  });

  describe('show, update and delete', () => {
    it('shows a set exactly as created (no variables), and lists it the same way', async () => {
      const ws = await t.createWorkspace(org);
      const created = await createVarset(t, org, { attributes: { description: 'same' }, workspaces: [ws] });
      const shown = await t.get(`/api/v2/varsets/${created.id}`);
      expectStatus(shown, 200);
      assert.deepEqual(shown.body, { data: created });
      const listed = await t.get(
        `/api/v2/organizations/${org}/varsets?q=${encodeURIComponent(created.attributes.name)}`,
      );
      assert.deepEqual(listed.body.data, [created]);
    });

    it('shows variables as identifiers outside create and update responses', async () => {
      const created = await createVarset(t, org, { vars: [{ key: 'a' }] });
      const shown = await t.get(`/api/v2/varsets/${created.id}`);
      assert.deepEqual(shown.body.data.relationships.vars.data, [
        { id: created.relationships.vars.data[0].id, type: 'vars' },
      ]);
      assert.equal(shown.body.data.attributes['var-count'], 1);
    });

    it('answers 404 for an unknown set', async () => {
      for (const res of [
        await t.get('/api/v2/varsets/nonexisting'),
        await t.patch('/api/v2/varsets/nonexisting', varsetBody({ attributes: { name: 'x' } })),
        await t.delete('/api/v2/varsets/nonexisting'),
      ]) {
        assert.equal(res.status, 404);
      }
    });

    it('updates the attributes given and keeps the others, priority included', async () => {
      const created = await createVarset(t, org, { attributes: { description: 'before', priority: true } });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await t.patch(`/api/v2/varsets/${created.id}`, varsetBody({ attributes: { description: 'after' } }));
      expectStatus(res, 200);
      assert.equal(res.body.data.attributes.description, 'after');
      assert.equal(res.body.data.attributes.priority, true);
      assert.equal(res.body.data.attributes.name, created.attributes.name);
      assert.ok(res.body.data.attributes['updated-at'] > created.attributes['updated-at']);
      const renamed = await t.put(
        `/api/v2/varsets/${created.id}`,
        varsetBody({ attributes: { name: 'Renamed by PUT', priority: false, global: true } }),
      );
      expectStatus(renamed, 200);
      assert.deepEqual(
        [
          renamed.body.data.attributes.name,
          renamed.body.data.attributes.priority,
          renamed.body.data.attributes.global,
          renamed.body.data.attributes.description,
        ],
        ['Renamed by PUT', false, true, 'after'],
      );
      const shown = await t.get(`/api/v2/varsets/${created.id}`);
      assert.deepEqual(shown.body.data.attributes, renamed.body.data.attributes);
      const posted = await t.post(
        `/api/v2/varsets/${created.id}`,
        varsetBody({ attributes: { description: 'by POST' } }),
      );
      expectStatus(posted, 200);
      assert.deepEqual(
        [posted.body.data.attributes.description, posted.body.data.attributes.name],
        ['by POST', 'Renamed by PUT'],
      );
    });

    it('refuses a taken name, bad attributes and a wrong type on update, changing nothing', async () => {
      const first = await createVarset(t, org);
      const second = await createVarset(t, org);
      const res = await expectRejected(t, org, 422, () =>
        t.patch(
          `/api/v2/varsets/${second.id}`,
          varsetBody({ attributes: { name: first.attributes.name, description: 'changed' } }),
        ),
      );
      assert.equal(errorOf(res).detail, 'Name has already been taken');
      for (const [body, status] of [
        [varsetBody({ attributes: { name: '' } }), 422],
        [varsetBody({ attributes: { name: 'x'.repeat(129) } }), 422],
        [varsetBody({ attributes: { global: 'yes' } }), 422],
        [{ data: { type: 'workspaces', attributes: {} } }, 422],
        [varsetBody({ attributes: { description: 'changed' }, workspaces: ['ws-unknown'] }), 404],
        [varsetBody({ attributes: { description: 'changed' }, projects: ['prj-unknown'] }), 404],
      ] as const) {
        await expectRejected(t, org, status, () => t.patch(`/api/v2/varsets/${second.id}`, body));
      }
      const shown = await t.get(`/api/v2/varsets/${second.id}`);
      assert.deepEqual(shown.body.data, second);
      // Renaming to its own name is no conflict.
      expectStatus(
        await t.patch(`/api/v2/varsets/${second.id}`, varsetBody({ attributes: { name: second.attributes.name } })),
        200,
      );
    });

    it('replaces assignments given in the body, clears them with an empty array, keeps them when absent', async () => {
      const [ws1, ws2, ws3] = [
        await t.createWorkspace(org),
        await t.createWorkspace(org),
        await t.createWorkspace(org),
      ];
      const [prj1, prj2] = [await t.createProject(org), await t.createProject(org)];
      const created = await createVarset(t, org, { workspaces: [ws1, ws2], projects: [prj1] });
      let res = await t.patch(
        `/api/v2/varsets/${created.id}?include=workspaces`,
        varsetBody({ attributes: { global: false }, workspaces: [ws2, ws3] }),
      );
      expectStatus(res, 200);
      assert.deepEqual(ids(res.body.data.relationships.workspaces.data), [ws2, ws3].sort());
      assert.deepEqual(ids(res.body.data.relationships.projects.data), [prj1]);
      assert.deepEqual(ids(res.body.included), [ws2, ws3].sort());
      assert.ok(res.body.included.every((w: any) => w.type === 'workspaces' && typeof w.attributes.name === 'string'));
      res = await t.patch(`/api/v2/varsets/${created.id}`, varsetBody({ projects: [prj2] }));
      assert.deepEqual(ids(res.body.data.relationships.projects.data), [prj2]);
      assert.deepEqual(ids(res.body.data.relationships.workspaces.data), [ws2, ws3].sort());
      res = await t.patch(`/api/v2/varsets/${created.id}`, varsetBody({ workspaces: [], projects: [] }));
      assert.deepEqual(res.body.data.relationships.workspaces.data, []);
      assert.deepEqual(res.body.data.relationships.projects.data, []);
      assert.equal(res.body.data.attributes['workspace-count'], 0);
      assert.equal(res.body.included, undefined);
    });

    it('adds the variables given in the body; a key already in the set is refused', async () => {
      const created = await createVarset(t, org, { vars: [{ key: 'one' }] });
      const res = await t.patch(`/api/v2/varsets/${created.id}`, varsetBody({ vars: [{ key: 'two', value: '2' }] }));
      expectStatus(res, 200);
      assert.equal(res.body.data.attributes['var-count'], 2);
      const two = res.body.data.relationships.vars.data.find((v: any) => v.attributes.key === 'two');
      assert.equal(two.attributes.value, '2');
      const dup = await expectRejected(t, org, 422, () =>
        t.patch(`/api/v2/varsets/${created.id}`, varsetBody({ vars: [{ key: 'one' }] })),
      );
      assert.equal(errorOf(dup).detail, 'Key has already been taken');
    });

    it('deletes a set with its variables', async () => {
      const created = await createVarset(t, org, { vars: [{ key: 'gone' }] });
      const varId = created.relationships.vars.data[0].id;
      const res = await t.delete(`/api/v2/varsets/${created.id}`);
      assert.equal(res.status, 204);
      assert.equal(res.body, undefined);
      assert.equal((await t.get(`/api/v2/varsets/${created.id}`)).status, 404);
      assert.equal((await t.get(`/api/v2/varsets/${created.id}/relationships/vars/${varId}`)).status, 404);
      assert.equal((await t.delete(`/api/v2/varsets/${created.id}`)).status, 404);
    });
  });

  describe('include', () => {
    it('adds included resources only when asked; an empty include means none; anything else is a 400', async () => {
      const ws = await t.createWorkspace(org);
      const prj = await t.createProject(org);
      const created = await createVarset(t, org, {
        workspaces: [ws],
        projects: [prj],
        vars: [
          { key: 'inc', value: 'v' },
          { key: 'hidden', value: 'x', sensitive: true },
        ],
      });
      const plain = await t.get(`/api/v2/varsets/${created.id}?include=`);
      assert.equal(plain.body.included, undefined);
      const all = await t.get(`/api/v2/varsets/${created.id}?include=vars,workspaces,projects`);
      expectStatus(all, 200);
      assert.deepEqual(
        all.body.included.map((r: any) => `${r.type}/${r.id}`).sort(),
        [
          ...created.relationships.vars.data.map((v: any) => `vars/${v.id}`),
          `workspaces/${ws}`,
          `projects/${prj}`,
        ].sort(),
      );
      const hidden = all.body.included.find((r: any) => r.type === 'vars' && r.attributes.key === 'hidden');
      assert.equal(hidden.attributes.value, null);
      assert.deepEqual(all.body.data, plain.body.data, 'include does not change the primary data');
      const onlyVars = await t.get(
        `/api/v2/organizations/${org}/varsets?include=vars&q=${encodeURIComponent(created.attributes.name)}`,
      );
      assert.deepEqual(
        onlyVars.body.included.map((r: any) => r.type),
        ['vars', 'vars'],
      );
      for (const url of [
        `/api/v2/varsets/${created.id}?include=stacks`,
        `/api/v2/organizations/${org}/varsets?include=vars,nope`,
        `/api/v2/varsets/${created.id}?include=vars&include=projects`,
      ]) {
        const res = await t.get(url);
        assert.equal(res.status, 400, url);
        assert.equal(errorOf(res).source?.parameter, 'include');
      }
      await expectRejected(t, org, 400, () =>
        t.post(
          `/api/v2/organizations/${org}/varsets?include=owner`,
          varsetBody({ attributes: { name: uniqueName() } }),
        ),
      );
      await expectRejected(t, org, 400, () =>
        t.patch(`/api/v2/varsets/${created.id}?include=owner`, varsetBody({ attributes: { name: uniqueName() } })),
      );
      const createdWithInclude = await t.post(
        `/api/v2/organizations/${org}/varsets?include=projects`,
        varsetBody({ attributes: { name: uniqueName() }, projects: [prj] }),
      );
      assert.deepEqual(
        createdWithInclude.body.included.map((r: any) => r.id),
        [prj],
      );
    });
  });

  describe('lists', () => {
    let listOrg: string;
    const names = ['delta', 'Alpha', 'charlie', 'bravo', 'echo_1', 'Echo%2'];
    before(async () => {
      listOrg = await t.createOrganization();
      for (const name of names) await createVarset(t, listOrg, { attributes: { name } });
    });

    it('orders by name in code point order and paginates with links and meta', async () => {
      const res = await t.get(`/api/v2/organizations/${listOrg}/varsets?page%5Bsize%5D=2&page%5Bnumber%5D=2`);
      expectStatus(res, 200);
      const all = await t.get(`/api/v2/organizations/${listOrg}/varsets`);
      assert.deepEqual(
        all.body.data.map((s: any) => s.attributes.name),
        ['Alpha', 'Echo%2', 'bravo', 'charlie', 'delta', 'echo_1'],
      );
      assert.deepEqual(
        res.body.data.map((s: any) => s.attributes.name),
        ['bravo', 'charlie'],
      );
      assert.deepEqual(res.body.meta.pagination, {
        'current-page': 2,
        'page-size': 2,
        'prev-page': 1,
        'next-page': 3,
        'total-pages': 3,
        'total-count': 6,
      });
      const base = `/api/v2/organizations/${listOrg}/varsets`;
      assert.deepEqual(res.body.links, {
        self: `${base}?page%5Bnumber%5D=2&page%5Bsize%5D=2`,
        first: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2`,
        prev: `${base}?page%5Bnumber%5D=1&page%5Bsize%5D=2`,
        next: `${base}?page%5Bnumber%5D=3&page%5Bsize%5D=2`,
        last: `${base}?page%5Bnumber%5D=3&page%5Bsize%5D=2`,
      });
      assert.deepEqual(all.body.meta.pagination, {
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': null,
        'total-pages': 1,
        'total-count': 6,
      });
      assert.equal(all.body.links.prev, null);
      assert.equal(all.body.links.next, null);
    });

    it('answers a page past the end with no data and the real total', async () => {
      const res = await t.get(
        `/api/v2/organizations/${listOrg}/varsets?include=&page%5Bnumber%5D=999&page%5Bsize%5D=100`,
      );
      expectStatus(res, 200);
      assert.deepEqual(res.body.data, []);
      assert.equal(res.body.included, undefined);
      assert.equal(res.body.meta.pagination['current-page'], 999);
      assert.equal(res.body.meta.pagination['total-count'], 6);
      assert.equal(res.body.meta.pagination['next-page'], null);
    });

    it('refuses bad page parameters with 400', async () => {
      for (const query of ['page%5Bnumber%5D=0', 'page%5Bnumber%5D=x', 'page%5Bsize%5D=101', 'page%5Bsize%5D=-1']) {
        for (const path of [
          `/organizations/${listOrg}/varsets`,
          `/projects/prj-any/varsets`,
          `/workspaces/ws-any/varsets`,
          `/varsets/nonexisting/relationships/vars`,
        ]) {
          const res = await t.get(`/api/v2${path}?${query}`);
          assert.equal(res.status, 400, `${path}?${query}`);
          assert.equal(
            errorOf(res).source?.parameter,
            query.startsWith('page%5Bnumber') ? 'page[number]' : 'page[size]',
          );
        }
      }
      const repeated = await t.get(`/api/v2/organizations/${listOrg}/varsets?q=a&q=b`);
      assert.equal(repeated.status, 400);
    });

    it('folds case beyond ASCII the same way on both stores', async () => {
      const org = await t.createOrganization();
      for (const name of ['Straße', 'ÉCOLE', 'Σοφία']) await createVarset(t, org, { attributes: { name } });
      const names = async (q: string) =>
        (await t.get(`/api/v2/organizations/${org}/varsets?q=${encodeURIComponent(q)}`)).body.data.map(
          (s: any) => s.attributes.name,
        );
      assert.deepEqual(await names('STRASSE'), ['Straße']);
      assert.deepEqual(await names('école'), ['ÉCOLE']);
      assert.deepEqual(await names('ΣΟΦΊΑ'), ['Σοφία']);
      assert.deepEqual(await names('σοφία'), ['Σοφία']);
    });

    it('searches names case-insensitively by substring, taking % and _ literally; the links keep q', async () => {
      const search = async (q: string) => {
        const res = await t.get(`/api/v2/organizations/${listOrg}/varsets?include=&q=${encodeURIComponent(q)}`);
        expectStatus(res, 200);
        return res.body;
      };
      assert.deepEqual(
        (await search('ECHO')).data.map((s: any) => s.attributes.name),
        ['Echo%2', 'echo_1'],
      );
      assert.deepEqual(
        (await search('ph')).data.map((s: any) => s.attributes.name),
        ['Alpha'],
      );
      assert.deepEqual(
        (await search('%')).data.map((s: any) => s.attributes.name),
        ['Echo%2'],
      );
      assert.deepEqual(
        (await search('o_')).data.map((s: any) => s.attributes.name),
        ['echo_1'],
      );
      assert.deepEqual((await search('nothing')).data, []);
      const body = await search('a');
      assert.equal(body.meta.pagination['total-count'], 4);
      assert.match(body.links.first, /[?&]q=a(&|$)/);
    });

    it('answers 404 for the lists of an unknown organization, project or workspace', async () => {
      for (const path of ['/organizations/nope/varsets', '/projects/prj-nope/varsets', '/workspaces/ws-nope/varsets']) {
        assert.equal((await t.get(`/api/v2${path}`)).status, 404, path);
      }
    });
  });

  describe('which sets a project and a workspace list', () => {
    it('follows global, project and workspace assignment and project ownership', async () => {
      const o = await t.createOrganization();
      const other = await t.createOrganization();
      const prj = await t.createProject(o);
      const prj2 = await t.createProject(o);
      const ws = await t.createWorkspace(o, { projectId: prj });
      const wsElsewhere = await t.createWorkspace(o, { projectId: prj2 });
      const global = await createVarset(t, o, { attributes: { name: 'global', global: true } });
      await createVarset(t, other, { attributes: { name: 'foreign-global', global: true } });
      const onProject = await createVarset(t, o, { attributes: { name: 'on-project' }, projects: [prj] });
      const onWorkspace = await createVarset(t, o, { attributes: { name: 'on-workspace' }, workspaces: [ws] });
      const owned = await createVarset(t, o, { attributes: { name: 'owned' }, parent: { type: 'projects', id: prj } });
      const ownedAndApplied = await createVarset(t, o, {
        attributes: { name: 'owned-applied' },
        parent: { type: 'projects', id: prj },
        workspaces: [ws],
      });
      const elsewhere = await createVarset(t, o, {
        attributes: { name: 'elsewhere' },
        projects: [prj2],
        workspaces: [wsElsewhere],
      });
      await createVarset(t, o, { attributes: { name: 'unassigned' } });

      const projectList = await t.get(`/api/v2/projects/${prj}/varsets`);
      expectStatus(projectList, 200);
      assert.deepEqual(ids(projectList.body.data), ids([global, onProject, owned, ownedAndApplied]));
      assert.equal(projectList.body.meta.pagination['total-count'], 4);

      const workspaceList = await t.get(`/api/v2/workspaces/${ws}/varsets`);
      expectStatus(workspaceList, 200);
      assert.deepEqual(ids(workspaceList.body.data), ids([global, onProject, onWorkspace, ownedAndApplied]));

      const elsewhereList = await t.get(`/api/v2/workspaces/${wsElsewhere}/varsets?q=E`);
      assert.deepEqual(ids(elsewhereList.body.data), ids([elsewhere]));
      const page = await t.get(`/api/v2/workspaces/${ws}/varsets?include=&page%5Bnumber%5D=999&page%5Bsize%5D=100`);
      assert.deepEqual(page.body.data, []);
      assert.equal(page.body.meta.pagination['total-count'], 4);
      assert.equal(page.body.meta.pagination['current-page'], 999);
      assert.equal(
        page.body.links.first,
        `/api/v2/workspaces/${ws}/varsets?include=&page%5Bnumber%5D=1&page%5Bsize%5D=100`,
      );
    });
  });

  describe('sets owned by a project', () => {
    let prj: string;
    let wsIn: string;
    let wsOut: string;
    let otherPrj: string;
    before(async () => {
      prj = await t.createProject(org);
      otherPrj = await t.createProject(org);
      wsIn = await t.createWorkspace(org, { projectId: prj });
      wsOut = await t.createWorkspace(org, { projectId: otherPrj });
    });

    it('shows its project as parent on create, show and list', async () => {
      const created = await createVarset(t, org, {
        attributes: { global: false },
        parent: { type: 'projects', id: prj },
      });
      assert.deepEqual(created.relationships.parent.data, { type: 'projects', id: prj });
      assert.equal(created.attributes.priority, false);
      assert.deepEqual((await t.get(`/api/v2/varsets/${created.id}`)).body.data, created);
    });

    it('cannot be global', async () => {
      const res = await expectRejected(t, org, 422, () =>
        postVarset(t, org, { attributes: { global: true }, parent: { type: 'projects', id: prj } }),
      );
      assert.equal(errorOf(res).source?.pointer, '/data/attributes/global');
      const owned = await createVarset(t, org, { parent: { type: 'projects', id: prj } });
      await expectRejected(t, org, 422, () =>
        t.patch(`/api/v2/varsets/${owned.id}`, varsetBody({ attributes: { global: true } })),
      );
    });

    it('applies only to its project and the workspaces in it', async () => {
      await expectRejected(t, org, 422, () =>
        postVarset(t, org, { parent: { type: 'projects', id: prj }, workspaces: [wsIn, wsOut] }),
      );
      await expectRejected(t, org, 422, () =>
        postVarset(t, org, { parent: { type: 'projects', id: prj }, projects: [otherPrj] }),
      );
      const owned = await createVarset(t, org, {
        parent: { type: 'projects', id: prj },
        workspaces: [wsIn],
        projects: [prj],
      });
      assert.equal(owned.attributes['workspace-count'], 1);
      assert.equal(owned.attributes['project-count'], 1);
      await expectRejected(t, org, 422, () =>
        t.post(`/api/v2/varsets/${owned.id}/relationships/workspaces`, identifiers('workspaces', [wsOut])),
      );
      await expectRejected(t, org, 422, () =>
        t.post(`/api/v2/varsets/${owned.id}/relationships/projects`, identifiers('projects', [otherPrj])),
      );
      await expectRejected(t, org, 422, () =>
        t.patch(`/api/v2/varsets/${owned.id}`, varsetBody({ workspaces: [wsOut] })),
      );
      await expectRejected(t, org, 422, () =>
        t.patch(`/api/v2/varsets/${owned.id}`, varsetBody({ projects: [otherPrj] })),
      );
    });

    it('keeps its parent: naming the same one is fine, another one is a 422', async () => {
      const owned = await createVarset(t, org, { parent: { type: 'projects', id: prj } });
      expectStatus(
        await t.patch(
          `/api/v2/varsets/${owned.id}`,
          varsetBody({ attributes: { description: 'x' }, parent: { type: 'projects', id: prj } }),
        ),
        200,
      );
      for (const parent of [
        { type: 'projects', id: otherPrj },
        { type: 'organizations', id: org },
      ]) {
        const res = await expectRejected(t, org, 422, () =>
          t.patch(`/api/v2/varsets/${owned.id}`, varsetBody({ parent })),
        );
        assert.equal(errorOf(res).source?.pointer, '/data/relationships/parent/data');
      }
      const orgOwned = await createVarset(t, org);
      await expectRejected(t, org, 422, () =>
        t.patch(`/api/v2/varsets/${orgOwned.id}`, varsetBody({ parent: { type: 'projects', id: prj } })),
      );
    });
  });

  describe('assignment', () => {
    it('applies cumulatively and idempotently, and removes only the listed ones', async () => {
      const [ws1, ws2, ws3] = [
        await t.createWorkspace(org),
        await t.createWorkspace(org),
        await t.createWorkspace(org),
      ];
      const set = await createVarset(t, org);
      await assign(t, set.id, 'workspaces', [ws1]);
      await assign(t, set.id, 'workspaces', [ws2, ws1]);
      await assign(t, set.id, 'workspaces', [ws3, ws3]);
      let shown = await t.get(`/api/v2/varsets/${set.id}`);
      assert.deepEqual(ids(shown.body.data.relationships.workspaces.data), [ws1, ws2, ws3].sort());
      assert.equal(shown.body.data.attributes['workspace-count'], 3);
      const removed = await t.delete(
        `/api/v2/varsets/${set.id}/relationships/workspaces`,
        identifiers('workspaces', [ws1, ws3]),
      );
      assert.equal(removed.status, 204);
      assert.equal(removed.body, undefined);
      shown = await t.get(`/api/v2/varsets/${set.id}`);
      assert.deepEqual(ids(shown.body.data.relationships.workspaces.data), [ws2]);

      const [prj1, prj2] = [await t.createProject(org), await t.createProject(org)];
      await assign(t, set.id, 'projects', [prj1]);
      await assign(t, set.id, 'projects', [prj2]);
      await assign(t, set.id, 'projects', [prj2]);
      expectStatus(
        await t.delete(`/api/v2/varsets/${set.id}/relationships/projects`, identifiers('projects', [prj1])),
        204,
      );
      shown = await t.get(`/api/v2/varsets/${set.id}`);
      assert.deepEqual(ids(shown.body.data.relationships.projects.data), [prj2]);
      assert.equal(shown.body.data.attributes['project-count'], 1);
    });

    it('moves updated-at only when an assignment changes', async () => {
      const ws = await t.createWorkspace(org);
      const set = await createVarset(t, org, { workspaces: [ws] });
      const updatedAt = async () => (await t.get(`/api/v2/varsets/${set.id}`)).body.data.attributes['updated-at'];
      const before = await updatedAt();
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const method of ['POST', 'DELETE'] as const) {
        expectStatus(
          await t.request(method, `/api/v2/varsets/${set.id}/relationships/workspaces`, { body: { data: [] } }),
          204,
        );
        expectStatus(
          await t.request(method, `/api/v2/varsets/${set.id}/relationships/projects`, { body: { data: [] } }),
          204,
        );
      }
      await assign(t, set.id, 'workspaces', [ws]);
      expectStatus(
        await t.delete(
          `/api/v2/varsets/${set.id}/relationships/projects`,
          identifiers('projects', [await t.createProject(org)]),
        ),
        204,
      );
      assert.equal(await updatedAt(), before);
      await assign(t, set.id, 'workspaces', [await t.createWorkspace(org)]);
      assert.ok((await updatedAt()) > before);
    });

    it('reads only type and id of full resource objects, as go-tfe sends them', async () => {
      const ws = await t.createWorkspace(org);
      const wsResource = (await t.get(`/api/v2/workspaces/${ws}`)).body.data;
      const set = await createVarset(t, org);
      const body = {
        data: [
          {
            ...wsResource,
            attributes: { ...wsResource.attributes, name: '', 'created-at': '0001-01-01T00:00:00Z' },
            relationships: { organization: { data: null } },
          },
        ],
      };
      expectStatus(await t.post(`/api/v2/varsets/${set.id}/relationships/workspaces`, body), 204);
      expectStatus(await t.delete(`/api/v2/varsets/${set.id}/relationships/workspaces`, body), 204);
    });

    it('answers 404 for unknown ids and those of another organization, 422 for a malformed body, changing nothing', async () => {
      const other = await t.createOrganization();
      const foreignWs = await t.createWorkspace(other);
      const foreignPrj = await t.createProject(other);
      const ws = await t.createWorkspace(org);
      const set = await createVarset(t, org, { workspaces: [ws] });
      for (const method of ['POST', 'DELETE'] as const) {
        const send = (kind: string, body: unknown) =>
          t.request(method, `/api/v2/varsets/${set.id}/relationships/${kind}`, { body });
        await expectRejected(t, org, 404, () => send('workspaces', identifiers('workspaces', [ws, 'ws-unknown'])));
        await expectRejected(t, org, 404, () => send('workspaces', identifiers('workspaces', [foreignWs])));
        await expectRejected(t, org, 404, () => send('projects', identifiers('projects', [foreignPrj])));
        await expectRejected(t, org, 404, () => send('projects', identifiers('projects', ['prj-unknown'])));
        await expectRejected(t, org, 422, () => send('workspaces', identifiers('projects', [ws])));
        await expectRejected(t, org, 422, () => send('workspaces', { data: { type: 'workspaces', id: ws } }));
        await expectRejected(t, org, 422, () => send('workspaces', { data: [{ type: 'workspaces' }] }));
        await expectRejected(t, org, 422, () =>
          t.request(method, `/api/v2/varsets/${set.id}/relationships/projects`, {
            contentType: 'application/vnd.api+json',
          }),
        );
        assert.equal(
          (
            await t.request(method, `/api/v2/varsets/nonexisting/relationships/workspaces`, {
              body: identifiers('workspaces', [ws]),
            })
          ).status,
          404,
        );
      }
    });
  });

  describe('deleting what sets are applied to', () => {
    it('removes the assignments of a deleted workspace or project, and the sets a deleted project owns', async () => {
      const o = await t.createOrganization();
      const prj = await t.createProject(o);
      const ownerPrj = await t.createProject(o);
      const ws = await t.createWorkspace(o);
      const set = await createVarset(t, o, { workspaces: [ws], projects: [prj], vars: [{ key: 'k' }] });
      const owned = await createVarset(t, o, { parent: { type: 'projects', id: ownerPrj }, projects: [ownerPrj] });
      expectStatus(await t.delete(`/api/v2/workspaces/${ws}`), 204);
      expectStatus(await t.delete(`/api/v2/projects/${prj}`), 204);
      const shown = await t.get(`/api/v2/varsets/${set.id}`);
      assert.deepEqual(shown.body.data.relationships.workspaces.data, []);
      assert.deepEqual(shown.body.data.relationships.projects.data, []);
      assert.deepEqual(
        [
          shown.body.data.attributes['workspace-count'],
          shown.body.data.attributes['project-count'],
          shown.body.data.attributes['var-count'],
        ],
        [0, 0, 1],
      );
      expectStatus(await t.delete(`/api/v2/projects/${ownerPrj}`), 204);
      assert.equal((await t.get(`/api/v2/varsets/${owned.id}`)).status, 404);
      expectStatus(await t.delete(`/api/v2/varsets/${set.id}`), 204);
    });

    it('deletes every set of a deleted organization', async () => {
      const o = await t.createOrganization();
      const ws = await t.createWorkspace(o);
      const global = await createVarset(t, o, { attributes: { global: true }, vars: [{ key: 'g' }], workspaces: [ws] });
      expectStatus(await t.delete(`/api/v2/organizations/${o}`), 204);
      assert.equal((await t.get(`/api/v2/varsets/${global.id}`)).status, 404);
      // The organization's name is free again, and so are its global keys.
      const again = await t.createOrganization(o);
      await createVarset(t, again, { attributes: { global: true }, vars: [{ key: 'g' }] });
    });
  });

  describe('responses to unauthenticated requests', () => {
    it('answers 401 without a token and does not write', async () => {
      const res = await expectRejected(t, org, 401, () =>
        t.post(`/api/v2/organizations/${org}/varsets`, varsetBody({ attributes: { name: uniqueName() } }), {
          token: null,
        }),
      );
      assert.equal(errorOf(res).title, 'unauthorized');
    });
  });

  it('answers variable counts for sets with variables', async () => {
    const set = await createVarset(t, org);
    await createVar(t, set.id, { key: 'a' });
    await createVar(t, set.id, { key: 'b' });
    const shown = await t.get(`/api/v2/varsets/${set.id}`);
    assert.equal(shown.body.data.attributes['var-count'], 2);
  });
});
