import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryCounter } from '../src/db/query-counter.js';
import { TestApp } from './support/app.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

describe(`workspace lists (${storeKind})`, () => {
  const counter = new QueryCounter();
  let t: TestApp;
  let org: string;
  let project: string;
  const ids: Record<string, string> = {};

  before(async () => {
    t = await TestApp.start();
    // Count the statements of every request (see the last test).
    (t.store as { db: unknown }).db = t.store.db.withPlugin(counter);
    org = await t.createOrganization();
    project = await t.createProject(org, 'apps');
    for (const name of ['web-prod', 'web-dev', 'api-prod', 'Batch_Prod'])
      ids[name] = await t.createWorkspace(org, { name, ...(name.startsWith('api') ? { projectId: project } : {}) });
    expectStatus(
      await t.post(`/api/v2/workspaces/${ids['web-prod']}/relationships/tags`, {
        data: [
          { type: 'tags', attributes: { name: 'frontend' } },
          { type: 'tags', attributes: { name: 'prod' } },
        ],
      }),
      204,
    );
    expectStatus(
      await t.post(`/api/v2/workspaces/${ids['api-prod']}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: 'prod' } }],
      }),
      204,
    );
    expectStatus(
      await t.patch(`/api/v2/workspaces/${ids['web-dev']}/tag-bindings`, {
        data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'dev' } }],
      }),
      200,
    );
    expectStatus(
      await t.patch(`/api/v2/projects/${project}/tag-bindings`, {
        data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'prod' } }],
      }),
      200,
    );
  });
  after(async () => t.close());

  async function names(query: string): Promise<string[]> {
    const res = await t.get(`/api/v2/organizations/${org}/workspaces?${query}`);
    expectStatus(res, 200);
    return res.body.data.map((w: any) => w.attributes.name);
  }

  it('searches by name, wildcard name, tags, excluded tags, project and tag bindings', async () => {
    assert.deepEqual(
      await names('search%5Bname%5D=PROD'),
      ['Batch_Prod', 'api-prod', 'web-prod'],
      'in code point order',
    );
    assert.deepEqual(await names('search%5Bwildcard-name%5D=*-prod'), ['api-prod', 'web-prod']);
    assert.deepEqual(await names('search%5Bwildcard-name%5D=web*'), ['web-dev', 'web-prod']);
    assert.deepEqual(await names('search%5Bwildcard-name%5D=web'), [], 'without a star the whole name must match');
    assert.deepEqual(await names('search%5Bwildcard-name%5D=batch_prod'), ['Batch_Prod']);
    assert.deepEqual(await names('search%5Btags%5D=prod'), ['api-prod', 'web-prod']);
    assert.deepEqual(await names('search%5Btags%5D=prod,frontend'), ['web-prod']);
    assert.deepEqual(await names('search%5Bexclude-tags%5D=prod'), ['Batch_Prod', 'web-dev']);
    assert.deepEqual(await names(`filter%5Bproject%5D%5Bid%5D=${project}`), ['api-prod']);
    assert.deepEqual(
      await names('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env'),
      ['api-prod', 'web-dev'],
      'own bindings and the project’s',
    );
    assert.deepEqual(await names('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod'), [
      'api-prod',
    ]);
    assert.deepEqual(
      await names('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D='),
      ['api-prod', 'web-dev'],
      'an empty value is any value',
    );
  });

  it('takes and ignores the TagBindings parameter go-tfe sends beside filter[tagged], and nothing else unknown', async () => {
    // go-tfe's query encoder writes its untagged TagBindings field as the text of each Go value, once per binding.
    const tagged = 'filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod';
    assert.deepEqual(await names(`${tagged}&TagBindings=%26%7B+env+prod+%7D`), ['api-prod']);
    assert.deepEqual(
      await names(
        `${tagged}&filter%5Btagged%5D%5B1%5D%5Bkey%5D=env&TagBindings=%26%7Benv+prod%7D&TagBindings=%26%7Benv+%7D`,
      ),
      ['api-prod'],
    );
    assert.deepEqual(
      await names('TagBindings=%26%7Benv+dev%7D'),
      ['Batch_Prod', 'api-prod', 'web-dev', 'web-prod'],
      'never read: it filters nothing',
    );
    for (const [url, parameter] of [
      [`/api/v2/organizations/${org}/workspaces?tagbindings=x`, 'tagbindings'],
      [`/api/v2/organizations/${org}/workspaces?TagBindings%5B0%5D=x`, 'TagBindings[0]'],
      [`/api/v2/organizations/${org}/varsets?TagBindings=x`, 'TagBindings'],
      [`/api/v2/workspaces/${ids['web-prod']}?TagBindings=x`, 'TagBindings'],
    ] as const) {
      const res = await t.get(url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.errors[0].source.parameter, parameter, url);
    }
  });

  it('lists the projects that have each binding asked for by filter[tagged], as go-tfe sends it', async () => {
    const other = await t.createProject(org, 'tools');
    expectStatus(
      await t.patch(`/api/v2/projects/${other}/tag-bindings`, {
        data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'dev' } }],
      }),
      200,
    );
    const projectNames = async (query: string) => {
      const res = await t.get(`/api/v2/organizations/${org}/projects?${query}`);
      expectStatus(res, 200);
      return res.body.data.map((p: any) => p.attributes.name).sort();
    };
    assert.deepEqual(await projectNames('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env'), ['apps', 'tools']);
    assert.deepEqual(
      await projectNames('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=dev'),
      ['tools'],
    );
    assert.deepEqual(await projectNames('filter%5Btagged%5D%5B0%5D%5Bkey%5D=team'), []);
    // go-tfe also sends its filter as the text of a Go value under TagBindings; only filter[tagged] counts.
    assert.deepEqual(
      await projectNames(
        'filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod&TagBindings=%26%7Benv+prod%7D',
      ),
      ['apps'],
    );
    expectStatus(await t.get(`/api/v2/organizations/${org}/projects?filter%5Btagged%5D%5B0%5D%5Bvalue%5D=dev`), 400);
    expectStatus(await t.delete(`/api/v2/projects/${other}`), 204);
  });

  it('sorts by name (in code point order), creation or change time, either way', async () => {
    assert.deepEqual(await names('sort=name'), ['Batch_Prod', 'api-prod', 'web-dev', 'web-prod']);
    assert.deepEqual(await names('sort=-name'), ['web-prod', 'web-dev', 'api-prod', 'Batch_Prod']);
    assert.deepEqual(await names('sort=created-at'), ['web-prod', 'web-dev', 'api-prod', 'Batch_Prod']);
    assert.deepEqual(await names('sort=-created-at'), ['Batch_Prod', 'api-prod', 'web-dev', 'web-prod']);
  });

  it('answers 400 naming the parameter for a sort, an include or a binding filter it cannot honour', async () => {
    for (const [query, parameter] of [
      ['sort=current-run.created-at', 'sort'],
      ['include=current_run', 'include'],
      ['include=organization,readme', 'include'],
      ['filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod', 'filter[tagged][0][key]'],
      ['sort=name&sort=-name', 'sort'],
    ] as const) {
      const res = await t.get(`/api/v2/organizations/${org}/workspaces?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.errors[0].source.parameter, parameter, query);
    }
    const read = await t.get(`/api/v2/workspaces/${ids['web-prod']}?include=outputs`);
    assert.equal(read.status, 400);
  });

  it('includes the organization and the effective tag bindings, inherited ones linking to their project', async () => {
    const res = await t.get(
      `/api/v2/organizations/${org}/workspaces?include=organization,effective_tag_bindings&search%5Bname%5D=api`,
    );
    expectStatus(res, 200);
    const [workspace] = res.body.data;
    const organization = res.body.included.find((r: any) => r.type === 'organizations');
    assert.equal(organization.id, org);
    const bindings = res.body.included.filter((r: any) => r.type === 'effective-tag-bindings');
    assert.deepEqual(
      workspace.relationships['effective-tag-bindings'].data,
      bindings.map((b: any) => ({ id: b.id, type: 'effective-tag-bindings' })),
    );
    assert.deepEqual(
      bindings.map((b: any) => [b.attributes.key, b.attributes.value, b.links['inherited-from']]),
      [['env', 'prod', { id: project, type: 'projects' }]],
    );
  });

  it('includes each workspace’s project and current configuration version', async () => {
    const cv = await t.post(`/api/v2/workspaces/${ids['api-prod']}/configuration-versions`, {
      data: { type: 'configuration-versions' },
    });
    expectStatus(cv, 201);
    const res = await t.get(`/api/v2/workspaces/${ids['api-prod']}?include=project,current_configuration_version`);
    expectStatus(res, 200);
    assert.deepEqual(
      res.body.included.map((r: any) => [r.type, r.id]),
      [
        ['projects', project],
        ['configuration-versions', cv.body.data.id],
      ],
    );
    const list = await t.get(`/api/v2/organizations/${org}/workspaces?include=project`);
    assert.equal(list.body.included.filter((r: any) => r.type === 'projects').length, 2, 'each project once');
  });

  it('costs the same number of statements for a page of 1 and a page of 4, whatever it includes', async () => {
    const count = async (query: string) => {
      counter.count = 0;
      expectStatus(await t.get(`/api/v2/organizations/${org}/workspaces?${query}`), 200);
      return counter.count;
    };
    const include = 'include=organization,project,current_configuration_version,effective_tag_bindings';
    // A page of the one workspace with a configuration version, and a page of all four.
    assert.equal(
      await count(`${include}&search%5Bname%5D=api&page%5Bsize%5D=1`),
      await count(`${include}&page%5Bsize%5D=4`),
    );
    assert.equal(await count('page%5Bsize%5D=1'), await count('page%5Bsize%5D=4'));
  });
});
