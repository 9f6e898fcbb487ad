import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Organizations, projects and workspaces: the resources variable sets and runs live in. */
describe(`organizations, projects and workspaces (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  const organizationBody = (attributes: Record<string, unknown>) => ({ data: { type: 'organizations', attributes } });

  describe('organizations', () => {
    it('creates one whose id is its name, with a default project', async () => {
      const res = await t.post(
        '/api/v2/organizations',
        organizationBody({ name: 'acme-corp', email: 'ops@acme.test' }),
      );
      expectStatus(res, 201);
      assert.equal(res.body.data.id, 'acme-corp');
      assert.equal(res.body.data.type, 'organizations');
      assert.equal(res.body.data.attributes.email, 'ops@acme.test');
      assert.match(res.body.data.attributes['created-at'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const projects = await t.get('/api/v2/organizations/acme-corp/projects');
      expectStatus(projects, 200);
      assert.deepEqual(
        projects.body.data.map((p: any) => p.attributes.name),
        ['Default Project'],
      );
    });

    it('shows, lists and renames it', async () => {
      const name = await t.createOrganization();
      expectStatus(await t.get(`/api/v2/organizations/${name}`), 200);
      const list = await t.get('/api/v2/organizations?page%5Bsize%5D=100');
      assert.ok(list.body.data.some((o: any) => o.id === name));
      const renamed = await t.patch(`/api/v2/organizations/${name}`, organizationBody({ name: `${name}-new` }));
      expectStatus(renamed, 200);
      assert.equal(renamed.body.data.id, `${name}-new`);
      assert.equal((await t.get(`/api/v2/organizations/${name}`)).status, 404);
      expectStatus(await t.get(`/api/v2/organizations/${name}-new`), 200);
      const put = await t.put(`/api/v2/organizations/${name}-new`, organizationBody({ email: 'put@example.com' }));
      expectStatus(put, 200);
      assert.equal(put.body.data.attributes.email, 'put@example.com');
    });

    it('rejects a taken name, a bad name, a missing email and wrong types with 422', async () => {
      const name = await t.createOrganization();
      const cases: [Record<string, unknown>, string][] = [
        [{ name, email: 'a@example.com' }, '/data/attributes/name'],
        [{ name: 'has space', email: 'a@example.com' }, '/data/attributes/name'],
        [{ name: 'x'.repeat(65), email: 'a@example.com' }, '/data/attributes/name'],
        [{ email: 'a@example.com' }, '/data/attributes/name'],
        [{ name: 'no-email' }, '/data/attributes/email'],
        [{ name: 'bad-email', email: 'nope' }, '/data/attributes/email'],
        [{ name: 42, email: 'a@example.com' }, '/data/attributes/name'],
      ];
      for (const [attributes, pointer] of cases) {
        const res = await t.post('/api/v2/organizations', organizationBody(attributes));
        assert.equal(res.status, 422, JSON.stringify(attributes));
        assert.equal(res.body.errors[0].source.pointer, pointer);
      }
      const wrongType = await t.post('/api/v2/organizations', {
        data: { type: 'workspaces', attributes: { name: 'x', email: 'a@example.com' } },
      });
      assert.equal(wrongType.status, 422);
      assert.equal(wrongType.body.errors[0].source.pointer, '/data/type');
    });

    it('deletes everything in it', async () => {
      const org = await t.createOrganization();
      const project = await t.createProject(org);
      const workspace = await t.createWorkspace(org, { projectId: project });
      const varset = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'shared', global: true },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: workspace }] } },
        },
      });
      expectStatus(varset, 200);
      assert.equal((await t.delete(`/api/v2/organizations/${org}`)).status, 204);
      for (const path of [
        `/api/v2/organizations/${org}`,
        `/api/v2/projects/${project}`,
        `/api/v2/workspaces/${workspace}`,
        `/api/v2/varsets/${varset.body.data.id}`,
      ]) {
        assert.equal((await t.get(path)).status, 404, path);
      }
    });

    it('has no stacks', async () => {
      const org = await t.createOrganization();
      const res = await t.get(`/api/v2/organizations/${org}/stacks?page%5Bsize%5D=100`);
      expectStatus(res, 200);
      assert.deepEqual(res.body.data, []);
      assert.equal(res.body.meta.pagination['total-count'], 0);
    });

    it('answers 404 for an unknown organization', async () => {
      for (const path of [
        '/api/v2/organizations/nope',
        '/api/v2/organizations/nope/projects',
        '/api/v2/organizations/nope/workspaces',
      ]) {
        assert.equal((await t.get(path)).status, 404, path);
      }
    });
  });

  describe('projects', () => {
    it('creates, shows, renames and deletes one', async () => {
      const org = await t.createOrganization();
      const created = await t.post(`/api/v2/organizations/${org}/projects`, {
        data: { type: 'projects', attributes: { name: 'Platform', description: 'infra' } },
      });
      expectStatus(created, 201);
      const id = created.body.data.id;
      assert.match(id, /^prj-[A-Za-z0-9]{16}$/);
      assert.deepEqual(created.body.data.relationships.organization.data, { type: 'organizations', id: org });
      const renamed = await t.patch(`/api/v2/projects/${id}`, {
        data: { type: 'projects', attributes: { name: 'Platform 2' } },
      });
      expectStatus(renamed, 200);
      assert.equal(renamed.body.data.attributes.name, 'Platform 2');
      assert.equal(renamed.body.data.attributes.description, 'infra');
      assert.equal((await t.delete(`/api/v2/projects/${id}`)).status, 204);
      assert.equal((await t.get(`/api/v2/projects/${id}`)).status, 404);
    });

    it('rejects a taken name in the same organization, but not in another', async () => {
      const org = await t.createOrganization();
      await t.createProject(org, 'twin');
      const res = await t.post(`/api/v2/organizations/${org}/projects`, {
        data: { type: 'projects', attributes: { name: 'twin' } },
      });
      assert.equal(res.status, 422);
      assert.equal(res.body.errors[0].detail, 'Name has already been taken');
      await t.createProject(await t.createOrganization(), 'twin');
    });

    it('lists with search, escaping LIKE wildcards', async () => {
      const org = await t.createOrganization();
      await t.createProject(org, 'Alpha_one');
      await t.createProject(org, 'alphaXone');
      const found = await t.get(`/api/v2/organizations/${org}/projects?q=ALPHA_`);
      expectStatus(found, 200);
      assert.deepEqual(
        found.body.data.map((p: any) => p.attributes.name),
        ['Alpha_one'],
      );
    });

    it('keeps the default project and any project that still holds workspaces', async () => {
      const org = await t.createOrganization();
      const list = await t.get(`/api/v2/organizations/${org}/projects`);
      const defaultProject = list.body.data[0].id;
      assert.equal((await t.delete(`/api/v2/projects/${defaultProject}`)).status, 422);
      const project = await t.createProject(org);
      const workspace = await t.createWorkspace(org, { projectId: project });
      assert.equal((await t.delete(`/api/v2/projects/${project}`)).status, 409);
      expectStatus(await t.get(`/api/v2/workspaces/${workspace}`), 200);
    });

    it('removes its variable set assignments and the sets it owns when deleted', async () => {
      const org = await t.createOrganization();
      const project = await t.createProject(org);
      const assigned = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'assigned' },
          relationships: { projects: { data: [{ type: 'projects', id: project }] } },
        },
      });
      const owned = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'owned' },
          relationships: { parent: { data: { type: 'projects', id: project } } },
        },
      });
      expectStatus(assigned, 200);
      expectStatus(owned, 200);
      assert.equal((await t.delete(`/api/v2/projects/${project}`)).status, 204);
      const after = await t.get(`/api/v2/varsets/${assigned.body.data.id}`);
      expectStatus(after, 200);
      assert.deepEqual(after.body.data.relationships.projects.data, []);
      assert.equal(after.body.data.attributes['project-count'], 0);
      assert.equal((await t.get(`/api/v2/varsets/${owned.body.data.id}`)).status, 404);
    });
  });

  describe('workspaces', () => {
    it('creates one in the default project unless a project is given', async () => {
      const org = await t.createOrganization();
      const projects = await t.get(`/api/v2/organizations/${org}/projects`);
      const res = await t.post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'app-prod' } },
      });
      expectStatus(res, 201);
      assert.match(res.body.data.id, /^ws-[A-Za-z0-9]{16}$/);
      assert.deepEqual(res.body.data.relationships.project.data, { type: 'projects', id: projects.body.data[0].id });
      assert.deepEqual(res.body.data.relationships.organization.data, { type: 'organizations', id: org });
      const project = await t.createProject(org);
      const inProject = await t.get(`/api/v2/workspaces/${await t.createWorkspace(org, { projectId: project })}`);
      assert.equal(inProject.body.data.relationships.project.data.id, project);
    });

    it('refuses a project of another organization with 404, and writes nothing', async () => {
      const org = await t.createOrganization();
      const foreign = await t.createProject(await t.createOrganization());
      const res = await t.post(`/api/v2/organizations/${org}/workspaces`, {
        data: {
          type: 'workspaces',
          attributes: { name: 'stray' },
          relationships: { project: { data: { type: 'projects', id: foreign } } },
        },
      });
      assert.equal(res.status, 404);
      assert.equal((await t.get(`/api/v2/organizations/${org}/workspaces/stray`)).status, 404);
    });

    it('reads, updates and deletes by id and by organization and name', async () => {
      const org = await t.createOrganization();
      const id = await t.createWorkspace(org, { name: 'one' });
      const byName = await t.get(`/api/v2/organizations/${org}/workspaces/one`);
      expectStatus(byName, 200);
      assert.equal(byName.body.data.id, id);
      const renamed = await t.patch(`/api/v2/workspaces/${id}`, {
        data: { type: 'workspaces', attributes: { name: 'two', description: 'second' } },
      });
      expectStatus(renamed, 200);
      assert.equal(renamed.body.data.attributes.name, 'two');
      expectStatus(
        await t.patch(`/api/v2/organizations/${org}/workspaces/two`, {
          data: { type: 'workspaces', attributes: { description: 'by name' } },
        }),
        200,
      );
      assert.equal((await t.get(`/api/v2/workspaces/${id}`)).body.data.attributes.description, 'by name');
      assert.equal((await t.delete(`/api/v2/organizations/${org}/workspaces/two`)).status, 204);
      assert.equal((await t.get(`/api/v2/workspaces/${id}`)).status, 404);
    });

    it('rejects a taken or malformed name with 422', async () => {
      const org = await t.createOrganization();
      await t.createWorkspace(org, { name: 'taken' });
      for (const name of ['taken', 'bad name', '', 'x'.repeat(91)]) {
        const res = await t.post(`/api/v2/organizations/${org}/workspaces`, {
          data: { type: 'workspaces', attributes: { name } },
        });
        assert.equal(res.status, 422, name);
        assert.equal(res.body.errors[0].source.pointer, '/data/attributes/name');
      }
    });

    it('lists with search[name] and filter[project][id], paginated', async () => {
      const org = await t.createOrganization();
      const project = await t.createProject(org);
      for (const name of ['web-1', 'web-2', 'db-1'])
        await t.createWorkspace(org, { name, ...(name === 'db-1' ? { projectId: project } : {}) });
      const web = await t.get(`/api/v2/organizations/${org}/workspaces?search%5Bname%5D=WEB&page%5Bsize%5D=1`);
      expectStatus(web, 200);
      assert.equal(web.body.data.length, 1);
      assert.equal(web.body.meta.pagination['total-count'], 2);
      assert.equal(web.body.meta.pagination['next-page'], 2);
      const inProject = await t.get(`/api/v2/organizations/${org}/workspaces?filter%5Bproject%5D%5Bid%5D=${project}`);
      assert.deepEqual(
        inProject.body.data.map((w: any) => w.attributes.name),
        ['db-1'],
      );
    });

    it('is deleted whatever is attached, and leaves the sets that were applied to it', async () => {
      const org = await t.createOrganization();
      const workspace = await t.createWorkspace(org);
      const varset = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'applied' },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: workspace }] } },
        },
      });
      expectStatus(varset, 200);
      assert.equal((await t.delete(`/api/v2/workspaces/${workspace}`)).status, 204);
      const after = await t.get(`/api/v2/varsets/${varset.body.data.id}`);
      expectStatus(after, 200);
      assert.deepEqual(after.body.data.relationships.workspaces.data, []);
    });

    it('leaves the sets of its old project when moved to another project', async () => {
      const org = await t.createOrganization();
      const [from, to] = [await t.createProject(org), await t.createProject(org)];
      const workspace = await t.createWorkspace(org, { projectId: from });
      const owned = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'project-owned' },
          relationships: {
            parent: { data: { type: 'projects', id: from } },
            workspaces: { data: [{ type: 'workspaces', id: workspace }] },
          },
        },
      });
      const shared = await t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: 'org-owned' },
          relationships: { workspaces: { data: [{ type: 'workspaces', id: workspace }] } },
        },
      });
      expectStatus(owned, 200);
      expectStatus(shared, 200);
      const moved = await t.patch(`/api/v2/workspaces/${workspace}`, {
        data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: to } } } },
      });
      expectStatus(moved, 200);
      const sets = await t.get(`/api/v2/workspaces/${workspace}/varsets`);
      assert.deepEqual(
        sets.body.data.map((s: any) => s.attributes.name),
        ['org-owned'],
      );
      assert.deepEqual(
        (await t.get(`/api/v2/varsets/${owned.body.data.id}`)).body.data.relationships.workspaces.data,
        [],
      );
    });
  });
});
