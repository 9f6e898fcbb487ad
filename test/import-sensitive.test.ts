import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runVarsetd, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, errorOf, expectStatus, httpClient, type Client } from './support/requests.js';
import { organizationToken } from './support/factories/access.js';
import { createOrganization } from './support/factories/organizations.js';
import { sourceInFrontOf, startSourceAndTarget, type SourceAndTarget } from './support/import-sources.js';
import { SECRET, seedOrganization } from './support/set-fixture.js';
import { storeKind, type TestStore } from './support/store.js';

/** A workspace's sensitive variable, beside the set's SECRET: it must travel too, and appear nowhere either. */
const WORKSPACE_SECRET = 'workspace-secret-93be0c51d4';
const SECRETS = new RegExp(`${SECRET}|${WORKSPACE_SECRET}`);

/** Every file under `dir` whose bytes hold one of the secrets in clear. */
function filesHoldingSecrets(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    if (bytes.includes(SECRET) || bytes.includes(WORKSPACE_SECRET)) found.push(file);
  }
  return found;
}

describe(`varsetd import --include-sensitive between two varsetd servers (${storeKind})`, () => {
  let pair: SourceAndTarget | undefined;
  let targetStore: TestStore;
  let source: ServerProcess;
  let target: ServerProcess;
  let s: Client;
  let t: Client;
  let dir: string;
  let adminTokenFile: string;
  let organizationTokenFile: string;
  let sourceSetId: string;
  let sourceWorkspaceId: string;
  const outputs: string[] = [];
  const varsetd = async (...args: string[]) => {
    const run = await runVarsetd(args, varsetdEnv(targetStore, { LOG_LEVEL: 'debug' }));
    outputs.push(run.stdout, run.stderr);
    return run;
  };
  const importFrom = (url: string, tokenFile: string, ...rest: string[]) =>
    varsetd('import', '--from', url, '--token-file', tokenFile, '--organization', 'acme', '--json', ...rest);

  before(async () => {
    pair = await startSourceAndTarget({ LOG_LEVEL: 'debug' });
    ({ targetStore, source, target } = pair);
    s = httpClient(source.url);
    t = httpClient(target.url);
    const { db } = await seedOrganization(s, 'acme');
    sourceWorkspaceId = db;
    expectStatus(
      await s.post(`/api/v2/workspaces/${db}/vars`, {
        data: {
          type: 'vars',
          attributes: { key: 'DB_PASSWORD', value: WORKSPACE_SECRET, category: 'env', sensitive: true },
        },
      }),
      201,
    );
    sourceSetId = (await s.get('/api/v2/organizations/acme/varsets?q=shared')).body.data[0].id;
    await createOrganization(t, 'acme');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-import-sensitive-'));
    adminTokenFile = path.join(dir, 'admin-token');
    fs.writeFileSync(adminTokenFile, `${ADMIN_TOKEN}\n`);
    organizationTokenFile = path.join(dir, 'organization-token');
    fs.writeFileSync(organizationTokenFile, await organizationToken(s, 'acme'));
  });
  after(async () => {
    try {
      await pair?.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the source gives a set's and a workspace's sensitive values to its site-admin token alone, never kept, each read in its trail", async () => {
    for (const [url, holds] of [
      [`/api/v2/varsets/${sourceSetId}/sensitive-values`, SECRET],
      [`/api/v2/workspaces/${sourceWorkspaceId}/sensitive-values`, WORKSPACE_SECRET],
    ] as const) {
      const res = await s.get(url);
      expectStatus(res, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.deepEqual(
        res.body.data.map((v: any) => [v.type, v.attributes.value]),
        [['sensitive-values', holds]],
      );
      // Read twice: the second read is one more event, not a kept body.
      expectStatus(await s.get(url), 200);
    }
    const trail = (
      await s.get('/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=acme&page%5Bsize%5D=100')
    ).body.data as any[];
    const reads = trail.filter((e) => e.resource.action === 'read-sensitive-values');
    assert.deepEqual(
      reads.map((e) => [e.resource.type, e.resource.id, e.resource.meta.name, e.resource.meta.count]).sort(),
      [
        ['varset', sourceSetId, 'shared', 1],
        ['varset', sourceSetId, 'shared', 1],
        ['workspace', sourceWorkspaceId, 'db', 1],
        ['workspace', sourceWorkspaceId, 'db', 1],
      ],
    );
    assert.doesNotMatch(JSON.stringify(trail), SECRETS, 'no value in the trail');

    const token = fs.readFileSync(organizationTokenFile, 'utf8');
    for (const url of [
      `/api/v2/varsets/${sourceSetId}/sensitive-values`,
      `/api/v2/workspaces/${sourceWorkspaceId}/sensitive-values`,
      '/api/v2/varsets/varset-doesnotexist/sensitive-values',
    ]) {
      const refused = await s.get(url, { token });
      expectStatus(refused, 403);
      assert.match(errorOf(refused).detail!, /only a site-admin token reads sensitive values/);
    }
    expectStatus(await s.get('/api/v2/varsets/varset-doesnotexist/sensitive-values'), 404);
    const openapi = (await s.get('/api/v2/openapi.json', { token: null })).body;
    for (const documented of ['/api/v2/varsets/{id}/sensitive-values', '/api/v2/workspaces/{id}/sensitive-values'])
      assert.match(openapi.paths[documented].get.description, /site-admin token alone/);
    expectStatus(await s.get(`/api/v2/varsets/${sourceSetId}/sensitive-values?page%5Bsize%5D=1`), 400);
  });

  it('without the flag nothing changes: the sensitive values are left behind and need one', async () => {
    await createOrganization(t, 'plain');
    const run = await importFrom(source.url, adminTokenFile, '--into', 'plain');
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report['include-sensitive'], false);
    const secret = report.sets
      .find((set: any) => set.name === 'shared')
      .variables.find((v: any) => v.key === 'AWS_SECRET_ACCESS_KEY');
    assert.equal(secret['value-needed'], true);
    assert.equal(report['workspace-variables'].find((v: any) => v.key === 'DB_PASSWORD')['value-needed'], true);
  });

  it("a token that is not the site administrator's is refused, and the import says so, writing nothing", async () => {
    await createOrganization(t, 'refused');
    const run = await importFrom(source.url, organizationTokenFile, '--into', 'refused', '--include-sensitive');
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^varsetd import: reading http:\/\/127\.0\.0\.1:\d+: --include-sensitive: the source refused its sensitive values \(403 to GET \/varsets\/:id\/sensitive-values: only a site-admin token reads sensitive values; this token is not one\); a varsetd source gives them to its site-admin token only\n$/,
    );
    assert.equal((await t.get('/api/v2/organizations/refused/workspaces')).body.data.length, 0);
    assert.equal((await t.get('/api/v2/organizations/refused/varsets')).body.data.length, 0);
  });

  it('a source that is not varsetd has no sensitive values to give, and the import says so', async () => {
    // An HCP-shaped API: the same answers, but no sensitive-values endpoint (HCP Terraform's 404).
    const hcp = await sourceInFrontOf(source.url, (req, res) => {
      if (!req.url!.includes('/sensitive-values')) return false;
      res.writeHead(404, { 'content-type': 'application/vnd.api+json' });
      res.end('{"errors":[{"status":"404","title":"not found"}]}');
      return true;
    });
    try {
      await createOrganization(t, 'elsewhere');
      const url = hcp.url;
      const run = await importFrom(url, adminTokenFile, '--into', 'elsewhere', '--include-sensitive');
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /: --include-sensitive: the source has no sensitive values to give \(404 to GET \/varsets\/:id\/sensitive-values\); only a varsetd server gives them, to its site-admin token\n$/,
      );
      assert.equal((await t.get('/api/v2/organizations/elsewhere/varsets')).body.data.length, 0);
    } finally {
      hcp.close();
    }
    const fromDir = await varsetd('import', '--from', dir, '--organization', 'acme', '--include-sensitive');
    assert.equal(fromDir.code, 2);
    assert.match(fromDir.stderr, /--include-sensitive reads a varsetd server: --from URL/);
  });

  it('brings the sensitive values over, sealed with the target keyring, to a run on the target; never in clear anywhere', async () => {
    const run = await importFrom(source.url, adminTokenFile, '--include-sensitive');
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report['include-sensitive'], true);
    const shared = report.sets.find((set: any) => set.name === 'shared');
    assert.deepEqual(
      shared.variables.find((v: any) => v.key === 'AWS_SECRET_ACCESS_KEY'),
      { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', result: 'created' },
      'created with its value: none needed',
    );
    assert.deepEqual(
      report['workspace-variables'].find((v: any) => v.key === 'DB_PASSWORD'),
      { workspace: 'db', key: 'DB_PASSWORD', category: 'env', result: 'created' },
    );

    // The values a run on the target gets.
    const workdir = fs.mkdtempSync(path.join(dir, 'run-'));
    fs.writeFileSync(path.join(workdir, 'main.tf'), '');
    // The command names the values by their hashes: exec's comment on the run quotes it.
    const hash = (value: string) => createHash('sha256').update(value).digest('hex');
    const check = [
      "const h = (v) => require('node:crypto').createHash('sha256').update(v ?? '').digest('hex');",
      `process.exit(h(process.env.AWS_SECRET_ACCESS_KEY) === '${hash(SECRET)}' && h(process.env.DB_PASSWORD) === '${hash(WORKSPACE_SECRET)}' ? 0 : 3);`,
    ].join(' ');
    const ran = await runVarsetd(
      ['exec', '--workspace', 'acme/db', '--dir', workdir, '--', process.execPath, '-e', check],
      { ...process.env, VARSETD_ADDRESS: target.url, VARSETD_TOKEN: ADMIN_TOKEN },
    );
    outputs.push(ran.stdout, ran.stderr);
    assert.equal(ran.code, 0, ran.stderr);
    // The target's own site-admin read opens them with its keyring: they were sealed with it.
    const sets = (await t.get('/api/v2/organizations/acme/varsets?q=shared')).body.data;
    const opened = await t.get(`/api/v2/varsets/${sets[0].id}/sensitive-values`);
    assert.deepEqual(
      opened.body.data.map((v: any) => v.attributes.value),
      [SECRET],
    );
    fs.rmSync(workdir, { recursive: true, force: true });

    // Again: nothing changes, the values held are the same.
    const again = await importFrom(source.url, adminTokenFile, '--include-sensitive');
    const second = JSON.parse(again.stdout);
    assert.deepEqual(new Set(second.sets.map((set: any) => set.result)), new Set(['unchanged']));
    assert.deepEqual(new Set(second['workspace-variables'].map((v: any) => v.result)), new Set(['unchanged']));
    const human = await varsetd(
      'import',
      '--from',
      source.url,
      '--token-file',
      adminTokenFile,
      '--organization',
      'acme',
      '--include-sensitive',
    );
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^import from http:\/\/127\.0\.0\.1:\d+ into acme, sensitive values included$/m);

    // Never in clear: not in a report, an error or a log of the command line or of either server,
    // not in a file of the target's data folder (its SQLite database, the keyring), nor in the folder
    // the import ran from; nor in the target's versions and audit trail.
    for (const output of [...outputs, source.output(), target.output()]) assert.doesNotMatch(output, SECRETS);
    assert.deepEqual(filesHoldingSecrets(targetStore.dataDir), []);
    assert.deepEqual(filesHoldingSecrets(dir), []);
    const versions = await t.get(`/api/v2/varsets/${sets[0].id}/versions`);
    assert.doesNotMatch(JSON.stringify(versions.body), SECRETS);
    const trail = await t.get(
      '/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=acme&page%5Bsize%5D=100',
    );
    assert.doesNotMatch(JSON.stringify(trail.body), SECRETS);
  });
});
