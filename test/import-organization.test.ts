import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runVarsetd, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createOrganization, createProject, createWorkspace } from './support/factories/organizations.js';
import { createVarset, type VarAttributes } from './support/factories/varsets.js';
import { effectiveByWorkspace, startSourceAndTarget, type SourceAndTarget } from './support/import-sources.js';
import { storeKind, type TestStore } from './support/store.js';

/**
 * A whole organization of some size imported from a second varsetd: 3 projects besides the
 * default one, 50 workspaces, 100 sets of every kind (global, priority, owned by a project,
 * applied to workspaces and to projects, terraform, env and HCL variables, sensitive ones, keys
 * that several sets and workspaces hold), workspace variables (sensitive ones too), every
 * sensitive value given by --values. Every workspace's effective variables are then the same
 * in both organizations, value-needed included.
 */

const ORGANIZATION = 'hashi';
const WORKSPACES = 50;
const SETS = 100;

/** The source organization; answers the values file's lines (SET/KEY or WORKSPACE/KEY) for its sensitive values. */
async function seed(c: Client): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  await createOrganization(c, ORGANIZATION);
  const projects = [
    await createProject(c, ORGANIZATION, 'network'),
    await createProject(c, ORGANIZATION, 'apps'),
    await createProject(c, ORGANIZATION, 'data'),
  ];
  const workspaces: string[] = [];
  for (let i = 0; i < WORKSPACES; i++) {
    const name = `ws-${String(i).padStart(2, '0')}`;
    // Every fourth in the default project.
    const projectId = i % 4 === 3 ? undefined : projects[i % 4];
    workspaces.push(await createWorkspace(c, ORGANIZATION, { name, ...(projectId ? { projectId } : {}) }));
    if (i % 5 === 0) {
      const res = await c.post(`/api/v2/workspaces/${workspaces[i]}/vars`, {
        data: { type: 'vars', attributes: { key: 'region', value: `ws-region-${i}`, category: 'terraform' } },
      });
      expectStatus(res, 201);
      const secret = await c.post(`/api/v2/workspaces/${workspaces[i]}/vars`, {
        data: {
          type: 'vars',
          attributes: { key: 'WS_TOKEN', value: `ws-secret-${i}`, category: 'env', sensitive: true },
        },
      });
      expectStatus(secret, 201);
      values[`${name}/WS_TOKEN`] = `ws-secret-${i}`;
    }
  }
  const pick = (from: number, count: number, step: number) =>
    Array.from({ length: count }, (_, n) => workspaces[(from + n * step) % WORKSPACES]!);
  for (let i = 0; i < SETS; i++) {
    const name = `set-${String(i).padStart(3, '0')}`;
    const kind = i % 10;
    const vars: VarAttributes[] = [
      { key: `key_${i}`, value: `value ${i}` },
      { key: `ENV_${i}`, value: `env ${i}`, category: 'env' },
      { key: `map_${i}`, value: `{ set = ${i}, kind = "${kind}" }`, hcl: true, description: `set ${i}` },
    ];
    // Keys several sets hold, so that precedence decides; a global set's keys are its own.
    if (kind !== 0)
      vars.push({ key: 'region', value: `region-${i}` }, { key: 'TF_LOG', value: `level-${i}`, category: 'env' });
    if (i % 4 === 1) {
      vars.push({
        key: `secret_${i}`,
        value: `set-secret-${i}`,
        sensitive: true,
        category: i % 8 === 1 ? 'env' : 'terraform',
      });
      values[`${name}/secret_${i}`] = `set-secret-${i}`;
    }
    const project = projects[i % 3]!;
    await createVarset(c, ORGANIZATION, {
      attributes: {
        name,
        description: `the ${kind} kind`,
        global: kind === 0,
        priority: kind === 1 || kind === 5,
      },
      vars,
      // A set a project owns applies only to that project's workspaces.
      ...(kind === 5
        ? { workspaces: workspaces.filter((_, j) => j % 4 === i % 3).slice(i % 5, (i % 5) + 4) }
        : kind === 1 || kind >= 4
          ? { workspaces: pick(i, 1 + (i % 7), 3) }
          : {}),
      ...(kind === 2 || kind === 3 || kind === 9 ? { projects: [project] } : {}),
      ...(kind === 2 || kind === 5 ? { parent: { type: 'projects', id: project } } : {}),
    });
  }
  return values;
}

describe(`varsetd import of a whole organization from another varsetd (${storeKind})`, () => {
  let pair: SourceAndTarget | undefined;
  let targetStore: TestStore;
  let source: ServerProcess;
  let target: ServerProcess;
  let dir: string;
  let values: Record<string, string>;

  before(async () => {
    pair = await startSourceAndTarget();
    ({ targetStore, source, target } = pair);
    values = await seed(httpClient(source.url));
    await createOrganization(httpClient(target.url), ORGANIZATION);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-import-organization-'));
    fs.writeFileSync(path.join(dir, 'token'), ADMIN_TOKEN);
    fs.writeFileSync(path.join(dir, 'values.json'), JSON.stringify(values));
  });
  after(async () => {
    try {
      await pair?.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('imports 100 sets, 50 workspaces and their variables: every workspace has the same effective variables', async () => {
    assert.equal(Object.keys(values).length, 35, '25 sensitive set variables and 10 workspace ones');
    const run = await runVarsetd(
      [
        'import',
        '--from',
        source.url,
        '--token-file',
        path.join(dir, 'token'),
        '--organization',
        ORGANIZATION,
        '--values',
        path.join(dir, 'values.json'),
        '--page-size',
        '20',
        '--json',
      ],
      varsetdEnv(targetStore),
    );
    assert.equal(run.code, 0, run.stderr);
    for (const value of Object.values(values))
      assert.ok(!run.stdout.includes(value), 'a sensitive value in the report');
    const report = JSON.parse(run.stdout);
    const count = (items: { result: string }[]) =>
      items.reduce<Record<string, number>>((n, { result }) => ({ ...n, [result]: (n[result] ?? 0) + 1 }), {});
    assert.deepEqual(count(report.sets), { created: SETS });
    assert.deepEqual(count(report.workspaces), { created: WORKSPACES });
    assert.deepEqual(count(report.projects), { created: 3, unchanged: 1 });
    assert.deepEqual(count(report['workspace-variables']), { created: 20 });
    assert.deepEqual(report.skipped, []);
    assert.ok(!run.stdout.includes('value-needed'), 'a sensitive value was left without one');

    const [imported, original] = await Promise.all([
      effectiveByWorkspace(httpClient(target.url), ORGANIZATION),
      effectiveByWorkspace(httpClient(source.url), ORGANIZATION),
    ]);
    assert.equal(Object.keys(original).length, WORKSPACES);
    assert.ok(
      Object.values(original).every((variables) => variables.length > 0),
      'every workspace has effective variables',
    );
    assert.deepEqual(imported, original);
  });
});
