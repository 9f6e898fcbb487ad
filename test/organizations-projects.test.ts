import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryCounter } from '../src/db/query-counter.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { TestApp } from './support/app.js';
import { teamWithToken } from './support/factories/access.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const orgBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'organizations', attributes, ...(relationships ? { relationships } : {}) },
});
const projectBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'projects', attributes, ...(relationships ? { relationships } : {}) },
});

/** Every setting an organization is created with when none is given: HCP Terraform's defaults. */
const DEFAULT_SETTINGS = {
  'session-timeout': null,
  'session-remember': null,
  'collaborator-auth-policy': 'password',
  'cost-estimation-enabled': true,
  'send-passing-statuses-for-untriggered-speculative-plans': false,
  'aggregated-commit-status-enabled': false,
  'speculative-plan-management-enabled': true,
  'assessments-enforced': false,
  'allow-force-delete-workspaces': false,
  'default-execution-mode': 'remote',
  'owners-team-saml-role-id': null,
  'user-tokens-enabled': true,
};

/** A value other than the default for each setting. */
const CHANGED_SETTINGS = {
  'session-timeout': 3600,
  'session-remember': 20160,
  'collaborator-auth-policy': 'two_factor_mandatory',
  'cost-estimation-enabled': false,
  'send-passing-statuses-for-untriggered-speculative-plans': true,
  'aggregated-commit-status-enabled': false,
  'speculative-plan-management-enabled': false,
  'assessments-enforced': true,
  'allow-force-delete-workspaces': true,
  'default-execution-mode': 'local',
  'owners-team-saml-role-id': 'owners-role',
  'user-tokens-enabled': false,
};

/** The changed settings but `user-tokens-enabled`, whose false refuses the site-admin token these tests act with. */
const CHANGED_SETTINGS_ADMIN_KEEPS = { ...CHANGED_SETTINGS, 'user-tokens-enabled': true };

const pick = (attributes: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.map((k) => [k, attributes[k]]));
const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS);

describe(`organizations and projects (${storeKind})`, () => {
  let t: TestApp;
  const counter = new QueryCounter();

  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  const newName = () => `org-${randomAlphanumeric(8)}`;

  async function createOrganizationWith(attributes: Record<string, unknown> = {}) {
    const name = newName();
    const res = await t.post('/api/v2/organizations', orgBody({ name, email: `${name}@example.com`, ...attributes }));
    expectStatus(res, 201);
    return res.body.data;
  }

  describe('organization settings', () => {
    it('are created with HCP Terraform’s defaults, and every response answers them', async () => {
      const created = await createOrganizationWith();
      assert.deepEqual(pick(created.attributes, SETTING_NAMES), DEFAULT_SETTINGS);
      const shown = await t.get(`/api/v2/organizations/${created.id}`);
      expectStatus(shown, 200);
      assert.deepEqual(shown.body.data, created);
      const listed = await t.get(`/api/v2/organizations?q=${created.id}`);
      assert.deepEqual(listed.body.data, [created]);
    });

    it('answer what varsetd does not have truthfully', async () => {
      const { attributes } = await createOrganizationWith();
      assert.equal(attributes['saml-enabled'], false);
      assert.equal(attributes['trial-expires-at'], null);
      assert.equal(attributes['plan-expires-at'], null);
      assert.equal(attributes['plan-is-trial'], false);
      assert.equal(attributes['is-in-degraded-mode'], false);
      assert.equal(attributes['stacks-enabled'], false);
      assert.match(attributes['external-id'], /^org-/);
      assert.ok(!Number.isNaN(Date.parse(attributes['created-at'])));
    });

    it('round-trip on create, update with PATCH and PUT, and read', async () => {
      const locked = await createOrganizationWith(CHANGED_SETTINGS);
      assert.deepEqual(pick(locked.attributes, SETTING_NAMES), CHANGED_SETTINGS);
      assert.equal((await t.get(`/api/v2/organizations/${locked.id}`)).status, 401);
      const created = await createOrganizationWith(CHANGED_SETTINGS_ADMIN_KEEPS);
      assert.deepEqual(pick(created.attributes, SETTING_NAMES), CHANGED_SETTINGS_ADMIN_KEEPS);
      const back = { ...DEFAULT_SETTINGS, 'session-timeout': 5, 'session-remember': 5 };
      // null counts as left out; an empty string clears the role id.
      const patched = await t.patch(
        `/api/v2/organizations/${created.id}`,
        orgBody({ ...back, 'owners-team-saml-role-id': '' }),
      );
      expectStatus(patched, 200);
      assert.deepEqual(pick(patched.body.data.attributes, SETTING_NAMES), back);
      const put = await t.put(
        `/api/v2/organizations/${created.id}`,
        orgBody({ 'allow-force-delete-workspaces': true }),
      );
      expectStatus(put, 200);
      const shown = await t.get(`/api/v2/organizations/${created.id}`);
      assert.deepEqual(pick(shown.body.data.attributes, SETTING_NAMES), {
        ...back,
        'allow-force-delete-workspaces': true,
      });
    });

    it('leave out what an update does not name, null included', async () => {
      const created = await createOrganizationWith(CHANGED_SETTINGS_ADMIN_KEEPS);
      const res = await t.patch(
        `/api/v2/organizations/${created.id}`,
        orgBody({ 'session-timeout': null, 'cost-estimation-enabled': null }),
      );
      expectStatus(res, 200);
      assert.deepEqual(pick(res.body.data.attributes, SETTING_NAMES), CHANGED_SETTINGS_ADMIN_KEEPS);
    });

    it('clear the owners team SAML role id with an empty string', async () => {
      const created = await createOrganizationWith({ 'owners-team-saml-role-id': 'role' });
      const res = await t.patch(`/api/v2/organizations/${created.id}`, orgBody({ 'owners-team-saml-role-id': '' }));
      assert.equal(res.body.data.attributes['owners-team-saml-role-id'], null);
    });

    const invalid: [string, Record<string, unknown>, string, Record<string, unknown>?][] = [
      [
        'a policy that does not exist',
        { 'collaborator-auth-policy': 'sms' },
        '/data/attributes/collaborator-auth-policy',
      ],
      ['a session timeout under 5 minutes', { 'session-timeout': 4 }, '/data/attributes/session-timeout'],
      ['a session timeout over two weeks', { 'session-timeout': 20161 }, '/data/attributes/session-timeout'],
      ['a session remember that is not an integer', { 'session-remember': 1.5 }, '/data/attributes/session-remember'],
      ['a flag that is not a boolean', { 'assessments-enforced': 'yes' }, '/data/attributes/assessments-enforced'],
      [
        'an execution mode that does not exist',
        { 'default-execution-mode': 'remoteish' },
        '/data/attributes/default-execution-mode',
      ],
      [
        'the agent execution mode, which needs an agent pool',
        { 'default-execution-mode': 'agent' },
        '/data/attributes/default-execution-mode',
      ],
      [
        'both passing statuses and aggregated statuses',
        { 'send-passing-statuses-for-untriggered-speculative-plans': true, 'aggregated-commit-status-enabled': true },
        '/data/attributes/aggregated-commit-status-enabled',
      ],
      [
        'a default agent pool',
        {},
        '/data/relationships/default-agent-pool',
        { 'default-agent-pool': { data: { type: 'agent-pools', id: 'apool-1' } } },
      ],
      [
        'an owners team SAML role id too long',
        { 'owners-team-saml-role-id': 'r'.repeat(256) },
        '/data/attributes/owners-team-saml-role-id',
      ],
    ];
    for (const [what, attributes, pointer, relationships] of invalid) {
      it(`refuse ${what} with a 422 pointing at it, on create and on update, changing nothing`, async () => {
        const name = newName();
        const create = await t.post(
          '/api/v2/organizations',
          orgBody({ name, email: `${name}@example.com`, ...attributes }, relationships),
        );
        assert.equal(create.status, 422, JSON.stringify(create.body));
        assert.equal(create.body.errors[0].source.pointer, pointer);
        assert.equal((await t.get(`/api/v2/organizations/${name}`)).status, 404);
        const existing = await createOrganizationWith();
        const update = await t.patch(
          `/api/v2/organizations/${existing.id}`,
          orgBody({ email: 'changed@example.com', ...attributes }, relationships),
        );
        assert.equal(update.status, 422, JSON.stringify(update.body));
        assert.equal(update.body.errors[0].source.pointer, pointer);
        assert.deepEqual((await t.get(`/api/v2/organizations/${existing.id}`)).body.data, existing);
      });
    }

    it('refuse aggregated statuses on an organization that sends passing statuses', async () => {
      const created = await createOrganizationWith({ 'send-passing-statuses-for-untriggered-speculative-plans': true });
      const res = await t.patch(
        `/api/v2/organizations/${created.id}`,
        orgBody({ 'aggregated-commit-status-enabled': true }),
      );
      assert.equal(res.status, 422);
      const both = await t.patch(
        `/api/v2/organizations/${created.id}`,
        orgBody({
          'aggregated-commit-status-enabled': true,
          'send-passing-statuses-for-untriggered-speculative-plans': false,
        }),
      );
      expectStatus(both, 200);
    });
  });

  describe('default project', () => {
    it('is created with the organization, named in every response, and included on request', async () => {
      const created = await createOrganizationWith();
      const projectId = created.relationships['default-project'].data.id;
      assert.equal(created.relationships['default-project'].data.type, 'projects');
      assert.deepEqual(created.relationships['default-agent-pool'], { data: null });
      const project = await t.get(`/api/v2/projects/${projectId}`);
      expectStatus(project, 200);
      assert.equal(project.body.data.attributes.name, 'Default Project');
      assert.equal(project.body.data.attributes['is-default'], true);

      const shown = await t.get(`/api/v2/organizations/${created.id}?include=default-project`);
      expectStatus(shown, 200);
      assert.deepEqual(shown.body.included, [project.body.data]);
      const listed = await t.get(`/api/v2/organizations?q=${created.id}&include=default-project`);
      assert.deepEqual(listed.body.included, [project.body.data]);
    });

    it('is included only for a caller who may read it', async () => {
      const created = await createOrganizationWith();
      const { token } = await teamWithToken(t, created.id);
      const res = await t.get(`/api/v2/organizations/${created.id}?include=default-project`, { token });
      expectStatus(res, 200);
      assert.deepEqual(res.body.included ?? [], []);
      assert.equal(
        res.body.data.relationships['default-project'].data.id,
        created.relationships['default-project'].data.id,
      );
    });
  });

  describe('entitlement set', () => {
    it('says what varsetd offers: teams, and none of HashiCorp’s other features', async () => {
      const created = await createOrganizationWith();
      const res = await t.get(`/api/v2/organizations/${created.id}/entitlement-set`);
      expectStatus(res, 200);
      const { id, type, attributes } = res.body.data;
      assert.equal(type, 'entitlement-sets');
      assert.equal(id, created.attributes['external-id']);
      assert.deepEqual(created.relationships['entitlement-set'].data, { id, type });
      assert.equal(attributes.teams, true);
      for (const feature of [
        'operations',
        'agents',
        'sentinel',
        'sso',
        'state-storage',
        'vcs-integrations',
        'private-module-registry',
        'run-tasks',
        'cost-estimation',
        'audit-logging',
      ]) {
        assert.equal(attributes[feature], false, feature);
      }
      const shown = await t.get(`/api/v2/organizations/${created.id}?include=entitlement_set,default-project`);
      expectStatus(shown, 200);
      assert.deepEqual(
        shown.body.included.map((r: { type: string }) => r.type),
        ['projects', 'entitlement-sets'],
      );
      assert.deepEqual(shown.body.included[1], res.body.data);
    });

    it('is a 404 for another organization’s token and a 400 with a query parameter', async () => {
      const created = await createOrganizationWith();
      const other = await createOrganizationWith();
      const { token } = await teamWithToken(t, other.id);
      assert.equal((await t.get(`/api/v2/organizations/${created.id}/entitlement-set`, { token })).status, 404);
      const res = await t.get(`/api/v2/organizations/${created.id}/entitlement-set?include=x`);
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].source.parameter, 'include');
    });
  });

  describe('organization list', () => {
    it('searches names and emails with q, names with q[name], emails with q[email], ignoring case', async () => {
      const tag = randomAlphanumeric(10).toLowerCase();
      const byName = await t.post(
        '/api/v2/organizations',
        orgBody({ name: `Named-${tag}`, email: `plain-${randomAlphanumeric(6)}@example.com` }),
      );
      expectStatus(byName, 201);
      const byEmail = await t.post(
        '/api/v2/organizations',
        orgBody({ name: `plain-${randomAlphanumeric(8)}`, email: `Mail-${tag}@Example.com` }),
      );
      expectStatus(byEmail, 201);
      const ids = async (query: string) =>
        (await t.get(`/api/v2/organizations?${query}`)).body.data.map((o: { id: string }) => o.id).sort();
      assert.deepEqual(await ids(`q=${tag.toUpperCase()}`), [byName.body.data.id, byEmail.body.data.id].sort());
      assert.deepEqual(await ids(`q%5Bname%5D=${tag}`), [byName.body.data.id]);
      assert.deepEqual(await ids(`q%5Bemail%5D=mail-${tag}`), [byEmail.body.data.id]);
      assert.deepEqual(await ids(`q=${tag}&q%5Bemail%5D=${tag}`), [byEmail.body.data.id]);
      assert.deepEqual(await ids(`q=nothing-${tag}`), []);
    });

    for (const [query, parameter] of [
      ['include=subscription', 'include'],
      ['include=default-project,entitlement_set', 'include'],
      ['filter%5Bname%5D=x', 'filter[name]'],
      ['search=x', 'search'],
      ['q=a&q=b', 'q'],
    ] as const) {
      it(`answers ${query} with a 400 naming ${parameter}`, async () => {
        const res = await t.get(`/api/v2/organizations?${query}`);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].source.parameter, parameter);
      });
    }

    it('answers a parameter an organization’s show does not know with a 400', async () => {
      const created = await createOrganizationWith();
      const res = await t.get(`/api/v2/organizations/${created.id}?q=x`);
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].source.parameter, 'q');
    });

    it('costs the same statements for a page of one and a page of many, with their default projects', async () => {
      const app = await TestApp.start({}, (store) => ({ ...store, db: store.db.withPlugin(counter) }));
      try {
        for (let i = 0; i < 6; i++) await app.createOrganization();
        const countFor = async (url: string) => {
          counter.count = 0;
          const res = await app.get(url);
          expectStatus(res, 200);
          return { queries: counter.count, body: res.body };
        };
        const one = await countFor('/api/v2/organizations?page%5Bsize%5D=1&include=default-project');
        const many = await countFor('/api/v2/organizations?page%5Bsize%5D=100&include=default-project');
        assert.equal(one.body.included.length, 1);
        assert.equal(many.body.included.length, 6);
        assert.equal(many.queries, one.queries);
        const projects = await countFor(`/api/v2/organizations/${many.body.data[0].id}/projects?page%5Bsize%5D=100`);
        assert.ok(projects.queries <= 3, `${projects.queries} queries`);
      } finally {
        await app.close();
      }
    });
  });

  describe('project settings', () => {
    it('are created with their defaults, following the organization’s execution mode', async () => {
      const org = await createOrganizationWith({ 'default-execution-mode': 'local' });
      const res = await t.post(`/api/v2/organizations/${org.id}/projects`, projectBody({ name: 'plain' }));
      expectStatus(res, 201);
      const { attributes, relationships } = res.body.data;
      assert.equal(attributes.description, '');
      assert.equal(attributes['auto-destroy-activity-duration'], null);
      assert.equal(attributes['default-execution-mode'], 'local');
      assert.deepEqual(attributes['setting-overwrites'], {
        'default-execution-mode': false,
        'default-agent-pool': false,
      });
      assert.deepEqual(relationships['default-agent-pool'], { data: null });
      assert.deepEqual(relationships.organization.data, { id: org.id, type: 'organizations' });
      assert.deepEqual((await t.get(`/api/v2/projects/${res.body.data.id}`)).body.data, res.body.data);
    });

    it('round-trip, and a project that follows its organization follows its changes', async () => {
      const org = await createOrganizationWith();
      const own = await t.post(
        `/api/v2/organizations/${org.id}/projects`,
        projectBody({
          name: 'own',
          description: 'mine',
          'auto-destroy-activity-duration': '14d',
          'default-execution-mode': 'local',
        }),
      );
      expectStatus(own, 201);
      assert.equal(own.body.data.attributes['auto-destroy-activity-duration'], '14d');
      assert.equal(own.body.data.attributes['default-execution-mode'], 'local');
      assert.deepEqual(own.body.data.attributes['setting-overwrites'], {
        'default-execution-mode': true,
        'default-agent-pool': true,
      });
      const follower = await t.post(
        `/api/v2/organizations/${org.id}/projects`,
        projectBody({
          name: 'follower',
          'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false },
        }),
      );
      expectStatus(follower, 201);

      expectStatus(
        await t.patch(`/api/v2/organizations/${org.id}`, orgBody({ 'default-execution-mode': 'local' })),
        200,
      );
      assert.equal(
        (await t.get(`/api/v2/projects/${follower.body.data.id}`)).body.data.attributes['default-execution-mode'],
        'local',
      );
      const defaultProject = org.relationships['default-project'].data.id;
      assert.equal(
        (await t.get(`/api/v2/projects/${defaultProject}`)).body.data.attributes['default-execution-mode'],
        'local',
      );

      const changed = await t.patch(
        `/api/v2/projects/${own.body.data.id}`,
        projectBody({ 'auto-destroy-activity-duration': null, 'default-execution-mode': 'remote', name: 'renamed' }),
      );
      expectStatus(changed, 200);
      assert.equal(changed.body.data.attributes['auto-destroy-activity-duration'], null);
      assert.equal(changed.body.data.attributes['default-execution-mode'], 'remote');
      assert.equal(changed.body.data.attributes.description, 'mine');
      expectStatus(
        await t.patch(`/api/v2/organizations/${org.id}`, orgBody({ 'default-execution-mode': 'remote' })),
        200,
      );
      expectStatus(
        await t.patch(`/api/v2/organizations/${org.id}`, orgBody({ 'default-execution-mode': 'local' })),
        200,
      );
      assert.equal(
        (await t.get(`/api/v2/projects/${own.body.data.id}`)).body.data.attributes['default-execution-mode'],
        'remote',
      );

      const back = await t.patch(
        `/api/v2/projects/${own.body.data.id}`,
        projectBody({ 'setting-overwrites': { 'default-execution-mode': false } }),
      );
      expectStatus(back, 200);
      assert.equal(back.body.data.attributes['default-execution-mode'], 'local');
      assert.deepEqual(back.body.data.attributes['setting-overwrites'], {
        'default-execution-mode': false,
        'default-agent-pool': false,
      });
    });

    const invalid: [string, Record<string, unknown>, string, Record<string, unknown>?][] = [
      [
        'a duration in minutes',
        { 'auto-destroy-activity-duration': '20m' },
        '/data/attributes/auto-destroy-activity-duration',
      ],
      [
        'a duration of 5 digits',
        { 'auto-destroy-activity-duration': '12345d' },
        '/data/attributes/auto-destroy-activity-duration',
      ],
      [
        'an execution mode that does not exist',
        { 'default-execution-mode': 'somewhere' },
        '/data/attributes/default-execution-mode',
      ],
      [
        'the agent execution mode without a pool',
        { 'default-execution-mode': 'agent' },
        '/data/attributes/default-execution-mode',
      ],
      [
        'a pool without the agent execution mode',
        { 'default-execution-mode': 'remote', 'default-agent-pool-id': 'apool-1' },
        '/data/attributes/default-agent-pool-id',
      ],
      [
        'overwrites that disagree',
        { 'setting-overwrites': { 'default-execution-mode': true, 'default-agent-pool': false } },
        '/data/attributes/setting-overwrites',
      ],
      [
        'a mode with overwrites false',
        { 'default-execution-mode': 'local', 'setting-overwrites': { 'default-execution-mode': false } },
        '/data/attributes/default-execution-mode',
      ],
      [
        'overwrites true without a mode',
        { 'setting-overwrites': { 'default-execution-mode': true } },
        '/data/attributes/default-execution-mode',
      ],
      [
        'overwrites that are not booleans',
        { 'setting-overwrites': { 'default-execution-mode': 'yes' } },
        '/data/attributes/setting-overwrites/default-execution-mode',
      ],
      ['a name with a slash', { name: 'a/b' }, '/data/attributes/name'],
      ['a description too long', { description: 'd'.repeat(513) }, '/data/attributes/description'],
    ];
    for (const [what, attributes, pointer] of invalid) {
      it(`refuse ${what} with a 422 pointing at it, on create and on update, changing nothing`, async () => {
        const org = await createOrganizationWith();
        const create = await t.post(
          `/api/v2/organizations/${org.id}/projects`,
          projectBody({ name: 'refused', ...attributes }),
        );
        assert.equal(create.status, 422, JSON.stringify(create.body));
        assert.equal(create.body.errors[0].source.pointer, pointer);
        const list = await t.get(`/api/v2/organizations/${org.id}/projects`);
        assert.equal(list.body.data.length, 1);
        const project = await t.post(`/api/v2/organizations/${org.id}/projects`, projectBody({ name: 'kept' }));
        const update = await t.patch(
          `/api/v2/projects/${project.body.data.id}`,
          projectBody({ description: 'changed', ...attributes }),
        );
        assert.equal(update.status, 422, JSON.stringify(update.body));
        assert.equal(update.body.errors[0].source.pointer, pointer);
        assert.deepEqual((await t.get(`/api/v2/projects/${project.body.data.id}`)).body.data, project.body.data);
      });
    }
  });

  describe('project list', () => {
    let org: string;
    before(async () => {
      org = (await createOrganizationWith()).id;
      for (const name of ['alpha', 'Beta', 'gamma']) {
        // Creation times a few milliseconds apart, so that newest-first has one answer.
        await new Promise((resolve) => setTimeout(resolve, 5));
        expectStatus(await t.post(`/api/v2/organizations/${org}/projects`, projectBody({ name })), 201);
      }
    });
    const names = async (query: string) => {
      const res = await t.get(`/api/v2/organizations/${org}/projects?${query}`);
      expectStatus(res, 200);
      return res.body.data.map((p: { attributes: { name: string } }) => p.attributes.name);
    };

    it('searches names with q, ignoring case, and filters exact names with filter[names]', async () => {
      assert.deepEqual(await names('q=BET'), ['Beta']);
      assert.deepEqual(await names('q=default'), ['Default Project']);
      assert.deepEqual(await names('filter%5Bnames%5D=alpha,gamma&sort=name'), ['alpha', 'gamma']);
      assert.deepEqual(await names('filter%5Bnames%5D=alpha&q=gam'), []);
    });

    it('sorts by name in code point order on both stores, reversed with -name, and newest first without sort', async () => {
      const ascending = await names('sort=name');
      assert.deepEqual(ascending, ['Beta', 'Default Project', 'alpha', 'gamma']);
      assert.deepEqual(await names('sort=-name'), [...ascending].reverse());
      // Created in this order: the organization's default project, then alpha, Beta and gamma.
      assert.deepEqual(await names(''), ['gamma', 'Beta', 'alpha', 'Default Project']);
    });

    it('filters on what the caller may do', async () => {
      const all = await names('');
      assert.deepEqual(await names('filter%5Bpermissions%5D%5Bupdate%5D=true'), all);
      const { token } = await teamWithToken(t, org, { 'organization-access': { 'read-projects': true } });
      const visible = await t.get(`/api/v2/organizations/${org}/projects`, { token });
      assert.equal(visible.body.data.length, all.length);
      const updatable = await t.get(`/api/v2/organizations/${org}/projects?filter%5Bpermissions%5D%5Bupdate%5D=true`, {
        token,
      });
      assert.deepEqual(updatable.body.data, []);
      const creatable = await t.get(
        `/api/v2/organizations/${org}/projects?filter%5Bpermissions%5D%5Bcreate-workspace%5D=true`,
        { token },
      );
      assert.deepEqual(creatable.body.data, []);
    });

    for (const [query, parameter] of [
      ['sort=created-at', 'sort'],
      ['filter%5Bpermissions%5D%5Bupdate%5D=false', 'filter[permissions][update]'],
      ['include=organization', 'include'],
      ['search%5Bname%5D=a', 'search[name]'],
    ] as const) {
      it(`answers ${query} with a 400 naming ${parameter}`, async () => {
        const res = await t.get(`/api/v2/organizations/${org}/projects?${query}`);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.errors[0].source.parameter, parameter);
      });
    }

    it('answers a parameter a project’s show does not know with a 400', async () => {
      const list = await t.get(`/api/v2/organizations/${org}/projects`);
      const res = await t.get(`/api/v2/projects/${list.body.data[0].id}?include=organization`);
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0].source.parameter, 'include');
    });
  });
});
