import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { QueryCounter } from '../src/db/query-counter.js';
import { loadCandidates } from '../src/effective/load.js';
import { createKeyring, keyringKey } from '../src/secrets/keyring.js';
import { resealValues } from '../src/secrets/reseal.js';
import { generateKey } from '../src/secrets/sealer.js';
import { TestApp } from './support/app.js';
import { createRun } from './support/factories/runs.js';
import { createVarset, uniqueName } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

async function createWorkspaceVar(t: TestApp, ws: string, attributes: Record<string, unknown>): Promise<any> {
  const res = await t.post(`/api/v2/workspaces/${ws}/vars`, {
    data: { type: 'vars', attributes: { category: 'terraform', ...attributes } },
  });
  expectStatus(res, 201);
  return res.body.data;
}

/** A compact view of an effective variable: key, category, value and where each value comes from. */
function summary(resource: any): unknown {
  const from = (v: any) =>
    v.source.type === 'varset'
      ? `${v.source.precedence}:${v.source.varset.name}`
      : `${v.source.precedence}:${v.source.type}`;
  return [
    resource.attributes.key,
    resource.attributes.category,
    resource.attributes.value,
    [from(resource.attributes), ...resource.attributes.overridden.map(from)],
  ];
}

describe(`effective variables (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  const effective = async (ws: string) => {
    const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables`);
    expectStatus(res, 200);
    return res.body.data as any[];
  };
  const allVars = async (ws: string) => {
    const res = await t.get(`/api/v2/workspaces/${ws}/all-vars`);
    expectStatus(res, 200);
    return res.body.data as any[];
  };
  const runEffective = async (run: string) => {
    const res = await t.get(`/api/v2/runs/${run}/effective-variables`);
    expectStatus(res, 200);
    return res.body.data as any[];
  };

  /** A workspace in its own organization and project, with candidates at most levels of precedence. */
  async function layeredWorkspace() {
    const org = await t.createOrganization();
    const prj = await t.createProject(org);
    const ws = await t.createWorkspace(org, { projectId: prj });
    const wsVar = await createWorkspaceVar(t, ws, { key: 'region', value: 'ws-region' });
    await createWorkspaceVar(t, ws, { key: 'region', category: 'env', value: 'ws-env-region' });
    const global = await createVarset(t, org, {
      attributes: { name: uniqueName('global'), global: true },
      vars: [{ key: `only-global-${ws}`, value: 'g' }],
    });
    const projectSet = await createVarset(t, org, {
      attributes: { name: 'b-project' },
      projects: [prj],
      vars: [
        { key: 'region', value: 'prj-region' },
        { key: 'size', value: 'prj-size' },
      ],
    });
    const wsSet = await createVarset(t, org, {
      attributes: { name: 'c-workspace' },
      workspaces: [ws],
      vars: [{ key: 'size', value: 'ws-set-size' }],
    });
    const owned = await createVarset(t, org, {
      attributes: { name: 'z-owned' },
      parent: { type: 'projects', id: prj },
      projects: [prj],
      vars: [
        { key: 'size', value: 'owned-size' },
        { key: 'zone', value: 'owned-zone' },
      ],
    });
    const priority = await createVarset(t, org, {
      attributes: { name: 'a-priority', priority: true },
      workspaces: [ws],
      vars: [
        { key: 'zone', value: 'forced-zone' },
        { key: 'TOKEN', category: 'env', value: 'hunter2', sensitive: true },
      ],
    });
    return { org, prj, ws, wsVar, global, projectSet, wsSet, owned, priority };
  }

  describe('GET /workspaces/:id/effective-variables', () => {
    it('gives each key and category its winner, its source and what it overrode, highest first', async () => {
      const { ws, global, priority } = await layeredWorkspace();
      const data = await effective(ws);
      assert.deepEqual(data.map(summary), [
        ['TOKEN', 'env', null, ['3:a-priority']],
        [`only-global-${ws}`, 'terraform', 'g', [`13:${global.attributes.name}`]],
        ['region', 'env', 'ws-env-region', ['8:workspace']],
        ['region', 'terraform', 'ws-region', ['8:workspace', '12:b-project']],
        ['size', 'terraform', 'owned-size', ['10:z-owned', '11:c-workspace', '12:b-project']],
        ['zone', 'terraform', 'forced-zone', ['3:a-priority', '10:z-owned']],
      ]);
      const zone = data.find((d) => d.attributes.key === 'zone');
      assert.equal(zone.type, 'effective-variables');
      assert.equal(zone.id, 'terraform:zone');
      assert.deepEqual(zone.attributes.source, {
        type: 'varset',
        precedence: 3,
        varset: {
          id: priority.id,
          name: 'a-priority',
          scope: 'workspace',
          owner: 'organization',
          priority: true,
          version: 1,
        },
      });
      assert.equal(zone.attributes.overridden[0].source.varset.owner, 'project');
      assert.equal(zone.attributes.overridden[0].source.varset.scope, 'project');
      assert.equal(zone.attributes.overridden[0].value, 'owned-zone');
      const region = data.find((d) => d.attributes.key === 'region' && d.attributes.category === 'terraform');
      assert.deepEqual(
        Object.keys(region.attributes).sort(),
        [
          'category',
          'description',
          'hcl',
          'key',
          'overridden',
          'sensitive',
          'source',
          'value',
          'variable-id',
          'version-id',
        ].sort(),
      );
      assert.deepEqual(region.attributes.source, { type: 'workspace', precedence: 8 });
    });

    it('never shows a sensitive value, winning or overridden', async () => {
      const ws = await t.createWorkspace(org);
      await createVarset(t, org, {
        workspaces: [ws],
        vars: [{ key: 'pw', value: 'overridden-secret', sensitive: true }],
      });
      await createWorkspaceVar(t, ws, { key: 'pw', value: 'winning-secret', sensitive: true });
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables`);
      expectStatus(res, 200);
      assert.equal(res.body.data[0].attributes.value, null);
      assert.equal(res.body.data[0].attributes.overridden[0].value, null);
      assert.ok(!JSON.stringify(res.body).includes('secret'));
    });

    it('with explain=true names the clouds whose dynamic credentials the env variables turn on, reading no sensitive switch', async () => {
      const ws = await t.createWorkspace(org);
      await createVarset(t, org, {
        workspaces: [ws],
        vars: [
          { key: 'TFC_AWS_PROVIDER_AUTH', category: 'env', value: 'true' },
          { key: 'TFC_AWS_RUN_ROLE_ARN', category: 'env', value: 'arn:aws:iam::123456789012:role/network' },
          { key: 'TFC_VAULT_PROVIDER_AUTH', category: 'env', value: 'true' },
          { key: 'TFC_VAULT_WORKLOAD_IDENTITY_AUDIENCE', category: 'env', value: 'vault.example.com' },
          { key: 'TFC_AZURE_PROVIDER_AUTH', category: 'env', value: 'true', sensitive: true },
        ],
      });
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      expectStatus(res, 200);
      assert.deepEqual(res.body.meta['dynamic-credentials'], [
        { target: 'aws', alias: null, audience: 'aws.workload.identity', phases: ['plan', 'apply'] },
        { target: 'vault', alias: null, audience: 'vault.example.com', phases: [] },
      ]);
    });

    it('with explain=true names each alias of a cloud with its own audience and phases, shared defaults applied', async () => {
      const ws = await t.createWorkspace(org);
      const env = (key: string, value: string) => ({ key, category: 'env', value });
      await createVarset(t, org, {
        attributes: { name: 'clouds of the network' },
        workspaces: [ws],
        vars: [
          env('TFC_AWS_PROVIDER_AUTH', 'true'),
          env('TFC_AWS_RUN_ROLE_ARN', 'arn:aws:iam::123456789012:role/network'),
          env('TFC_AWS_PROVIDER_AUTH_STAGING', 'true'),
          env('TFC_AWS_PLAN_ROLE_ARN_STAGING', 'arn:aws:iam::210987654321:role/staging-plan'),
          env('TFC_AWS_WORKLOAD_IDENTITY_AUDIENCE_STAGING', 'staging.aws.example.com'),
          env('TFC_AWS_PROVIDER_AUTH_prod_2', 'TRUE'),
          env('TFC_DEFAULT_AWS_RUN_ROLE_ARN', 'arn:aws:iam::111111111111:role/shared'),
          env('TFC_AWS_PROVIDER_AUTH_OFF', 'false'),
          env('TFC_AWS_PROVIDER_AUTH_TYPE', 'true'),
          env('TFC_VAULT_PROVIDER_AUTH_SECRETS', 'true'),
          env('TFC_DEFAULT_VAULT_ADDR', 'https://vault.example.com'),
          env('TFC_VAULT_RUN_ROLE_SECRETS', 'reader'),
          env('TFC_DEFAULT_VAULT_WORKLOAD_IDENTITY_AUDIENCE', 'vault.example.com'),
        ],
      });
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      expectStatus(res, 200);
      assert.deepEqual(res.body.meta['dynamic-credentials'], [
        { target: 'aws', alias: null, audience: 'aws.workload.identity', phases: ['plan', 'apply'] },
        { target: 'aws', alias: 'STAGING', audience: 'staging.aws.example.com', phases: ['plan', 'apply'] },
        { target: 'aws', alias: 'prod_2', audience: 'aws.workload.identity', phases: ['plan', 'apply'] },
        { target: 'vault', alias: 'SECRETS', audience: 'vault.example.com', phases: ['plan', 'apply'] },
      ]);
      // Without the shared role, STAGING has a role for its plan only, and prod_2 none.
      const shared = res.body.data.find((d: any) => d.attributes.key === 'TFC_DEFAULT_AWS_RUN_ROLE_ARN').attributes;
      expectStatus(
        await t.delete(`/api/v2/varsets/${shared.source.varset.id}/relationships/vars/${shared['variable-id']}`),
        204,
      );
      const after = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      assert.deepEqual(
        after.body.meta['dynamic-credentials'].map((c: any) => [c.alias, c.phases]),
        [
          [null, ['plan', 'apply']],
          ['STAGING', ['plan']],
          ['prod_2', []],
          ['SECRETS', ['plan', 'apply']],
        ],
      );
    });

    it("with explain=true names Google Cloud and Azure with HCP Terraform's default audiences", async () => {
      const ws = await t.createWorkspace(org);
      await createVarset(t, org, {
        workspaces: [ws],
        vars: [
          { key: 'TFC_GCP_PROVIDER_AUTH', category: 'env', value: 'true' },
          {
            key: 'TFC_GCP_WORKLOAD_PROVIDER_NAME',
            category: 'env',
            value: 'projects/1/locations/global/workloadIdentityPools/tfc/providers/varsetd',
          },
          { key: 'TFC_AZURE_PROVIDER_AUTH', category: 'env', value: 'true' },
        ],
      });
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      expectStatus(res, 200);
      assert.deepEqual(res.body.meta['dynamic-credentials'], [
        { target: 'azure', alias: null, audience: 'api://AzureADTokenExchange', phases: [] },
        {
          target: 'gcp',
          alias: null,
          audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/tfc/providers/varsetd',
          phases: [],
        },
      ]);
    });

    it('breaks ties between sets of one level by name in code point order, whatever was created first', async () => {
      const ws = await t.createWorkspace(org);
      for (const name of ['\u{1F600} set', 'b set', '\u{FF21} set', 'B set'])
        await createVarset(t, org, { attributes: { name }, workspaces: [ws], vars: [{ key: 'tie', value: name }] });
      const [tie] = await effective(ws);
      assert.deepEqual(summary(tie), [
        'tie',
        'terraform',
        'B set',
        ['11:B set', '11:b set', '11:\u{FF21} set', '11:\u{1F600} set'],
      ]);
    });

    it('with explain=true names each level, says why each winner won, and lists the levels in meta', async () => {
      const { ws } = await layeredWorkspace();
      const plain = await t.get(`/api/v2/workspaces/${ws}/effective-variables`);
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      expectStatus(res, 200);
      // Without it the document is as before: no meta, no reason, no level names.
      assert.equal(plain.body.meta, undefined);
      assert.ok(!JSON.stringify(plain.body).includes('level-name'));
      assert.deepEqual(res.body.data.map(summary), plain.body.data.map(summary));

      const byKey = (key: string) =>
        res.body.data.find((d: any) => d.attributes.key === key && d.attributes.category === 'terraform').attributes;
      const zone = byKey('zone');
      assert.equal(zone['decided-by'], 'precedence');
      assert.equal(
        zone.source['level-name'],
        'priority set owned by the organization, applied directly to the workspace',
      );
      assert.equal(
        zone.reason,
        "Level 3 (a priority set owned by the organization, applied directly to the workspace) beats everything below level 3; the next value is at level 10 (a set owned by a project, applied to the workspace's project).",
      );
      assert.equal(
        zone.overridden[0].source['level-name'],
        "set owned by a project, applied to the workspace's project",
      );
      assert.equal(byKey('size').source['level-name'], "set owned by a project, applied to the workspace's project");
      assert.equal(byKey('region').source['level-name'], 'workspace variable');
      assert.equal(byKey(`only-global-${ws}`)['decided-by'], 'only-value');
      assert.equal(byKey(`only-global-${ws}`).source['level-name'], 'global set');

      const levels = res.body.meta.precedence;
      assert.deepEqual(
        levels.map((l: any) => l.level),
        [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13],
      );
      assert.deepEqual(
        levels.find((l: any) => l.level === 6),
        { level: 6, name: 'run variable' },
      );
      assert.equal(levels.find((l: any) => l.level === 13).name, 'global set');
      assert.deepEqual(res.body.meta['dynamic-credentials'], []);
      expectStatus(await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=false`), 400);
      expectStatus(await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true&other=1`), 400);
    });

    it('with explain=true says when a tie between sets of one level was settled by name', async () => {
      const ws = await t.createWorkspace(org);
      for (const name of ['b tie', 'a tie', 'c tie'])
        await createVarset(t, org, {
          attributes: { name: `${name} ${ws}` },
          workspaces: [ws],
          vars: [{ key: 'tie', value: name }],
        });
      const res = await t.get(`/api/v2/workspaces/${ws}/effective-variables?explain=true`);
      expectStatus(res, 200);
      const [tie] = res.body.data;
      assert.equal(tie.attributes['decided-by'], 'name');
      assert.equal(
        tie.attributes.reason,
        `Set 'a tie ${ws}' ties with 2 other sets at level 11 (set owned by the organization, applied directly to the workspace): a tie between sets of one kind is settled by name, and 'a tie ${ws}' sorts first.`,
      );
    });

    it('counts a set reaching the workspace two ways once, at its highest level', async () => {
      const prj = await t.createProject(org);
      const ws = await t.createWorkspace(org, { projectId: prj });
      const both = await createVarset(t, org, {
        attributes: { name: uniqueName('both') },
        workspaces: [ws],
        projects: [prj],
        vars: [{ key: 'twice', value: 'x' }],
      });
      const [twice] = await effective(ws);
      assert.deepEqual(twice.attributes.source.varset, {
        id: both.id,
        name: both.attributes.name,
        scope: 'workspace',
        owner: 'organization',
        priority: false,
        version: 1,
      });
      assert.equal(twice.attributes.source.precedence, 11);
      assert.deepEqual(twice.attributes.overridden, []);
    });

    it('answers an empty list for a workspace without variables, 404 for an unknown one', async () => {
      const other = await t.createOrganization();
      const ws = await t.createWorkspace(other);
      assert.deepEqual(await effective(ws), []);
      assert.equal((await t.get('/api/v2/workspaces/nonexisting/effective-variables')).status, 404);
    });

    it('loads the candidates in three queries however many sets and variables there are', async () => {
      const prj = await t.createProject(org);
      const ws = await t.createWorkspace(org, { projectId: prj });
      await createWorkspaceVar(t, ws, { key: 'w' });
      const counter = new QueryCounter();
      const db = t.store.db.withPlugin(counter);
      const workspace = await t.store.db
        .selectFrom('workspaces')
        .selectAll()
        .where('id', '=', ws)
        .executeTakeFirstOrThrow();
      const counts: number[] = [];
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 4; i++) {
          await createVarset(t, org, { workspaces: [ws], vars: [{ key: `k${i}` }, { key: `r${round}-${i}` }] });
          await createVarset(t, org, {
            projects: [prj],
            parent: round === 1 ? { type: 'projects', id: prj } : undefined,
            vars: [{ key: `k${i}` }],
          });
        }
        counter.count = 0;
        const candidates = await loadCandidates(db, workspace);
        counts.push(counter.count);
        assert.ok(candidates.varsets.length >= 8 * (round + 1));
      }
      assert.deepEqual(counts, [3, 3, 3]);
    });
  });

  describe('GET /workspaces/:id/all-vars', () => {
    it('lists the winner of each key and category in its own shape: configurable for the workspace’s, varset for a set’s', async () => {
      const { ws, wsVar, owned, priority } = await layeredWorkspace();
      const data = await allVars(ws);
      assert.deepEqual(
        data.map((v) => [v.attributes.key, v.attributes.category, v.attributes.value]),
        [
          ['TOKEN', 'env', null],
          [`only-global-${ws}`, 'terraform', 'g'],
          ['region', 'env', 'ws-env-region'],
          ['region', 'terraform', 'ws-region'],
          ['size', 'terraform', 'owned-size'],
          ['zone', 'terraform', 'forced-zone'],
        ],
      );
      const region = data.find((v) => v.attributes.key === 'region' && v.attributes.category === 'terraform');
      const shown = await t.get(`/api/v2/workspaces/${ws}/vars/${wsVar.id}`);
      assert.deepEqual(region, shown.body.data);
      const size = data.find((v) => v.attributes.key === 'size');
      const ownedVar = await t.get(`/api/v2/varsets/${owned.id}/relationships/vars/${size.id}`);
      expectStatus(ownedVar, 200);
      assert.deepEqual(size, ownedVar.body.data);
      assert.deepEqual(size.relationships.varset.data, { id: owned.id, type: 'varsets' });
      assert.equal(data.find((v) => v.attributes.key === 'zone').relationships.varset.data.id, priority.id);
      assert.ok(data.every((v) => v.type === 'vars'));
    });

    it('answers 404 for an unknown workspace', async () => {
      assert.equal((await t.get('/api/v2/workspaces/nonexisting/all-vars')).status, 404);
    });
  });

  describe('runs', () => {
    it('resolve once at creation with the run’s variables; later edits leave the run’s variables as they were', async () => {
      const { org, ws, wsVar, projectSet, priority } = await layeredWorkspace();
      const run = await createRun(t, ws, {
        variables: [
          { key: 'region', value: '"run-region"' },
          { key: 'zone', value: '"run-zone"' },
          { key: 'extra', value: '1' },
        ],
      });
      const atCreation = await runEffective(run.id);
      assert.deepEqual(atCreation.filter((d) => ['region', 'zone', 'extra'].includes(d.attributes.key)).map(summary), [
        ['extra', 'terraform', '1', ['6:run']],
        ['region', 'env', 'ws-env-region', ['8:workspace']],
        ['region', 'terraform', '"run-region"', ['6:run', '8:workspace', '12:b-project']],
        ['zone', 'terraform', 'forced-zone', ['3:a-priority', '6:run', '10:z-owned']],
      ]);
      const region = atCreation.find((d) => d.id === 'terraform:region');
      assert.deepEqual(
        [region.attributes['variable-id'], region.attributes.hcl, region.attributes.sensitive],
        [null, true, false],
      );
      assert.equal(region.attributes.overridden[0]['variable-id'], wsVar.id);
      assert.equal(atCreation.find((d) => d.id === 'env:TOKEN').attributes.value, null);

      // Change everything the resolution came from.
      expectStatus(await t.delete(`/api/v2/workspaces/${ws}/vars/${wsVar.id}`), 204);
      const prjVar = projectSet.relationships.vars.data.find((v: any) => v.attributes.key === 'region');
      expectStatus(
        await t.patch(`/api/v2/varsets/${projectSet.id}/relationships/vars/${prjVar.id}`, {
          data: { type: 'vars', attributes: { value: 'changed' } },
        }),
        200,
      );
      expectStatus(
        await t.patch(`/api/v2/varsets/${priority.id}`, { data: { type: 'varsets', attributes: { priority: false } } }),
        200,
      );
      expectStatus(await t.delete(`/api/v2/varsets/${projectSet.id}`), 204);
      await createVarset(t, org, { workspaces: [ws], vars: [{ key: 'brand-new' }] });
      await createWorkspaceVar(t, ws, { key: 'extra', value: 'later' });

      assert.deepEqual(await runEffective(run.id), atCreation);
      const now = await effective(ws);
      assert.notDeepEqual(now, atCreation);
      assert.deepEqual(summary(now.find((d) => d.id === 'terraform:zone')), [
        'zone',
        'terraform',
        'owned-zone',
        ['10:z-owned', '11:a-priority'],
      ]);
    });

    it('copies sensitive values sealed into the run, and never shows them', async () => {
      const ws = await t.createWorkspace(org);
      await createVarset(t, org, { workspaces: [ws], vars: [{ key: 'pw', value: 'set-secret', sensitive: true }] });
      await createWorkspaceVar(t, ws, { key: 'pw', value: 'ws-secret', sensitive: true });
      const run = await createRun(t, ws);
      const res = await t.get(`/api/v2/runs/${run.id}/effective-variables`);
      expectStatus(res, 200);
      assert.ok(!JSON.stringify(res.body).includes('secret'));
      assert.deepEqual(
        [res.body.data[0].attributes.value, res.body.data[0].attributes.overridden[0].value],
        [null, null],
      );
      const rows = await t.store.db
        .selectFrom('run_effective_values')
        .select(['value', 'sensitive'])
        .where('run_id', '=', run.id)
        .orderBy('rank')
        .execute();
      assert.deepEqual(
        rows.map((r) => [t.app.sealer.open(r.value), r.sensitive]),
        [
          ['ws-secret', true],
          ['set-secret', true],
        ],
      );
      assert.ok(rows.every((r) => !r.value.includes('secret')));
    });

    it('key rotation re-encrypts the sealed values of workspace variables and of runs', async () => {
      const own = await TestApp.start();
      try {
        const o = await own.createOrganization();
        const ws = await own.createWorkspace(o);
        await createWorkspaceVar(own, ws, { key: 'pw', value: 'rotate-me', sensitive: true });
        await createRun(own, ws);
        const next = createKeyring([keyringKey(generateKey())]);
        await resealValues(own.store, createKeyring([...next.keys, ...own.app.sealer.keys]));
        const values = [
          ...(await own.store.db.selectFrom('workspace_variables').select('value').execute()),
          ...(await own.store.db.selectFrom('run_effective_values').select('value').execute()),
        ];
        assert.deepEqual(
          values.map((v) => next.open(v.value)),
          ['rotate-me', 'rotate-me'],
        );
      } finally {
        await own.close();
      }
    });

    it('keeps each run’s own resolution', async () => {
      const ws = await t.createWorkspace(org);
      const v = await createWorkspaceVar(t, ws, { key: 'n', value: 'first' });
      const first = await createRun(t, ws);
      expectStatus(
        await t.patch(`/api/v2/workspaces/${ws}/vars/${v.id}`, {
          data: { type: 'vars', attributes: { value: 'second' } },
        }),
        200,
      );
      const second = await createRun(t, ws, { variables: [] });
      assert.deepEqual((await runEffective(first.id)).map(summary), [['n', 'terraform', 'first', ['8:workspace']]]);
      assert.deepEqual((await runEffective(second.id)).map(summary), [['n', 'terraform', 'second', ['8:workspace']]]);
    });

    it('a refused run stores nothing; a run of a workspace without variables has an empty list', async () => {
      const ws = await t.createWorkspace(org);
      await createWorkspaceVar(t, ws, { key: 'n' });
      const count = async () =>
        Number(
          (
            await t.store.db
              .selectFrom('run_effective_values')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count();
      for (const attributes of [{ variables: [{ key: 'n', value: 1 }] }, {}]) {
        // The second has no uploaded configuration version: refused inside the run's transaction.
        const res = await t.post('/api/v2/runs', {
          data: { type: 'runs', attributes, relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
        });
        assert.equal(res.status, 422);
      }
      assert.equal(await count(), before);
      const bare = await createRun(t, await t.createWorkspace(await t.createOrganization()));
      assert.deepEqual(await runEffective(bare.id), []);
    });

    it('answers 404 for an unknown run', async () => {
      assert.equal((await t.get('/api/v2/runs/run-nonexisting0000/effective-variables')).status, 404);
    });
  });
});
