import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { grantWorkspace, organizationToken, ownersTeam, teamToken, teamWithToken } from './access-fixtures.js';
import { ADMIN_TOKEN, createTestStore, expectStatus, storeKind, type TestStore } from './helpers.js';
import { createOrganization, createVarset, injectClient, type Client } from './varsets-fixtures.js';

/** `varsetd exec` against a listening varsetd, running real Terraform 1.0.3 (scripts/terraform.sh fetches it once). */

const ROOT = path.resolve(import.meta.dirname, '..');
const TRICKY = 'q"uote back\\slash ${x} %{if} $${y} %%{z} $ % nl\nline\r\ttab é😀 \u0001 end\\';
const SECRET = 'hunter2 "${sealed}" \\ 🔑';
const ENV_SECRET = 'env-s3cr3t';

const MAIN_TF = `
variable "tricky" { type = string }
variable "secret" {
  type      = string
  sensitive = true
}
variable "number" { type = number }
variable "list" { type = list(string) }
variable "map" { type = map(number) }
variable "object" { type = object({ name = string, tags = list(string), on = bool }) }
variable "region" { type = string }
output "all" {
  value     = { tricky = var.tricky, secret = var.secret, number = var.number, list = var.list, map = var.map, object = var.object, region = var.region }
  sensitive = true
}
`;

describe(`varsetd exec with Terraform (${storeKind})`, () => {
  let terraform: string;
  let testStore: TestStore;
  let store: Store;
  let app: FastifyInstance;
  let client: Client;
  let address: string;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  let configDir: string;
  let home: string;

  before(async () => {
    terraform = execFileSync('bash', [path.join(ROOT, 'scripts/terraform.sh')], { encoding: 'utf8' }).trim();
    testStore = await createTestStore();
    store = await openStore(testStore);
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    app = await buildApp({ store });
    address = await app.listen({ host: '127.0.0.1', port: 0 });
    client = injectClient(app);
    org = await createOrganization(client);
    const res = await client.post(`/api/v2/organizations/${org}/workspaces`, { data: { type: 'workspaces', attributes: { name: 'network' } } });
    expectStatus(res, 201);
    ws = res.body.data.id;
    runner = await teamWithToken(client, org);
    await grantWorkspace(client, runner.teamId, ws, { access: 'plan' });
    await createVarset(client, org, {
      attributes: { global: true },
      vars: [
        { key: 'tricky', value: TRICKY },
        { key: 'secret', value: SECRET, sensitive: true },
        { key: 'number', value: '42.5', hcl: true },
        { key: 'list', value: '["a", "b\\"c"]', hcl: true },
        { key: 'map', value: '{ one = 1, two = 2 }', hcl: true },
        { key: 'object', value: '{\n  name = "n"\n  tags = ["x"]\n  on = true\n}', hcl: true },
        { key: 'region', value: 'from-global-set' },
        { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', value: ENV_SECRET, sensitive: true },
        { key: 'PLAIN_ENV', category: 'env', value: 'plain $HOME "x"' },
      ],
    });
    const wsVar = await client.post(`/api/v2/workspaces/${ws}/vars`, { data: { type: 'vars', attributes: { key: 'region', value: 'from-workspace', category: 'terraform' } } });
    expectStatus(wsVar, 201);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-exec-'));
    fs.writeFileSync(path.join(configDir, 'main.tf'), MAIN_TF);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-home-'));
  });
  after(async () => {
    await app.close();
    await store.close();
    await testStore.dispose();
    fs.rmSync(configDir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  interface ExecRun {
    child: ReturnType<typeof spawn>;
    done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  }
  function startExec(args: string[], env: Record<string, string> = { VARSETD_TOKEN: runner.token }): ExecRun {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/main.ts'), 'exec', ...args], {
      cwd: configDir,
      env: { PATH: `${path.dirname(terraform)}:${process.env.PATH}`, HOME: home, VARSETD_ADDRESS: address, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
  }
  const exec = (args: string[], env?: Record<string, string>) => startExec(args, env).done;
  const tfvarsFiles = () => fs.readdirSync(configDir).filter((name) => name.endsWith('.auto.tfvars'));
  const latestRun = async () => (await client.get(`/api/v2/workspaces/${ws}/runs`)).body.data[0];
  const commentsOf = async (runId: string) => ((await client.get(`/api/v2/runs/${runId}/comments`)).body.data as any[]).map((c) => c.attributes.body);
  const terraformBin = () => path.basename(terraform);

  it('gives Terraform exactly the stored values, with the precedence of the run\'s effective variables', async () => {
    const script = `${terraformBin()} apply -no-color -auto-approve -input=false && ${terraformBin()} output -json all > outputs.json && printf %s "$AWS_SECRET_ACCESS_KEY" > env-secret.txt && printf %s "$PLAIN_ENV" > env-plain.txt && stat -c %a zzz_varsetd_*.auto.tfvars > mode.txt`;
    const { code, stdout, stderr } = await exec(['--workspace', `${org}/network`, '--message', 'exec test', '--', 'sh', '-c', script]);
    assert.equal(code, 0, stderr);
    const outputs: Record<string, unknown> = JSON.parse(fs.readFileSync(path.join(configDir, 'outputs.json'), 'utf8'));
    const outputByKey = new Map(Object.entries(outputs));
    assert.deepEqual(outputs, {
      tricky: TRICKY,
      secret: SECRET,
      number: 42.5,
      list: ['a', 'b"c'],
      map: { one: 1, two: 2 },
      object: { name: 'n', tags: ['x'], on: true },
      region: 'from-workspace',
    });
    assert.equal(fs.readFileSync(path.join(configDir, 'env-secret.txt'), 'utf8'), ENV_SECRET);
    assert.equal(fs.readFileSync(path.join(configDir, 'env-plain.txt'), 'utf8'), 'plain $HOME "x"');
    assert.equal(fs.readFileSync(path.join(configDir, 'mode.txt'), 'utf8').trim(), '600');
    assert.deepEqual(tfvarsFiles(), []);
    for (const secret of [SECRET, ENV_SECRET]) assert.ok(!stdout.includes(secret) && !stderr.includes(secret), 'a sensitive value was printed');

    const run = await latestRun();
    assert.equal(run.attributes.status, 'planned');
    assert.equal(run.attributes.message, 'exec test');
    const effective = (await client.get(`/api/v2/runs/${run.id}/effective-variables`)).body.data as any[];
    const plainStrings = effective.filter((v) => v.attributes.category === 'terraform' && !v.attributes.sensitive && !v.attributes.hcl);
    assert.deepEqual(plainStrings.map((v) => v.attributes.key).sort(), ['region', 'tricky']);
    for (const { attributes } of plainStrings) assert.equal(outputByKey.get(attributes.key), attributes.value, attributes.key);
    assert.equal(effective.find((v) => v.attributes.key === 'region').attributes.source.type, 'workspace');
    const [comment] = await commentsOf(run.id);
    assert.match(comment, /^`sh -c '.*'` exited with 0 after \d+\.\d s\.$/s);
    const events = ((await client.get(`/api/v2/runs/${run.id}/run-events`)).body.data as any[]).map((e) => e.attributes.action);
    assert.deepEqual(events, ['created', 'variables-opened', 'planning', 'planned', 'commented']);
    fs.rmSync(path.join(configDir, 'terraform.tfstate'), { force: true });
  });

  it('uploads the directory without .terraform, .git and what .terraformignore leaves out', async () => {
    fs.mkdirSync(path.join(configDir, '.terraform'), { recursive: true });
    fs.writeFileSync(path.join(configDir, '.terraform', 'junk'), 'x');
    const { code, stderr } = await exec(['--workspace', `${org}/network`, '--', 'true']);
    assert.equal(code, 0, stderr);
    const run = await latestRun();
    const download = await app.inject({ method: 'GET', url: `/api/v2/configuration-versions/${run.relationships['configuration-version'].data.id}/download`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const listing = execFileSync('tar', ['-tz'], { input: download.rawPayload, encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.ok(listing.includes('main.tf'), listing.join(','));
    assert.ok(!listing.some((name) => name.startsWith('.terraform')), listing.join(','));
    assert.ok(!listing.some((name) => name.includes('auto.tfvars')), listing.join(','));
  });

  it('exits with a failing command\'s code, errors the run and removes the file', async () => {
    const { code } = await exec(['--workspace', `${org}/network`, '--', 'sh', '-c', 'test -f zzz_varsetd_*.auto.tfvars && exit 3']);
    assert.equal(code, 3);
    assert.deepEqual(tfvarsFiles(), []);
    const run = await latestRun();
    assert.equal(run.attributes.status, 'errored');
    assert.match((await commentsOf(run.id))[0], /exited with 3 after/);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`passes ${signal} on to the command, removes the file, and only the creating token reads the secrets meanwhile`, async () => {
      const execution = startExec(['--workspace', `${org}/network`, '--', 'sh', '-c', 'echo started; exec sleep 60']);
      const started = new Promise<boolean>((resolve) => execution.child.stdout!.on('data', (chunk) => String(chunk).includes('started') && resolve(true)));
      assert.ok(await Promise.race([started, execution.done.then(({ stderr }) => assert.fail(`exec ended early: ${stderr}`))]));
      assert.equal(tfvarsFiles().length, 1);
      const run = await latestRun();
      assert.equal(run.attributes.status, 'planning');
      const others = [await teamToken(client, await ownersTeam(client, org)), await organizationToken(client, org), ADMIN_TOKEN];
      for (const token of others) assert.equal((await app.inject({ url: `/api/v2/runs/${run.id}/opened-variables`, headers: { authorization: `Bearer ${token}` } })).statusCode, 404);
      const own = await app.inject({ url: `/api/v2/runs/${run.id}/opened-variables`, headers: { authorization: `Bearer ${runner.token}` } });
      assert.equal(own.statusCode, 200);
      assert.ok(own.body.includes('hunter2'));
      execution.child.kill(signal);
      const { code } = await execution.done;
      assert.equal(code, 128 + os.constants.signals[signal]);
      assert.deepEqual(tfvarsFiles(), []);
      const finished = (await client.get(`/api/v2/runs/${run.id}`)).body.data;
      assert.equal(finished.attributes.status, 'errored');
      const after = await app.inject({ url: `/api/v2/runs/${run.id}/opened-variables`, headers: { authorization: `Bearer ${runner.token}` } });
      assert.equal(after.statusCode, 409);
    });
  }

  it('puts Terraform\'s plan summary in the comment', async () => {
    const { code } = await exec(['--workspace', `${org}/network`, '--', 'sh', '-c', 'printf "\\033[1mPlan:\\033[0m 2 to add, 1 to change, 0 to destroy.\\n"']);
    assert.equal(code, 0);
    const [comment] = await commentsOf((await latestRun()).id);
    assert.match(comment, /\n\nPlan: 2 to add, 1 to change, 0 to destroy\.$/);
  });

  it('--dry-run prints what would be injected, sensitive values masked, and creates nothing', async () => {
    const before = (await latestRun()).id;
    const { code, stdout } = await exec(['--workspace', `${org}/network`, '--dry-run', '--', 'terraform', 'plan']);
    assert.equal(code, 0);
    assert.match(stdout, /AWS_SECRET_ACCESS_KEY=\(sensitive\)/);
    assert.match(stdout, /secret = \(sensitive\)/);
    assert.match(stdout, /region = "from-workspace"/);
    assert.ok(!stdout.includes(ENV_SECRET) && !stdout.includes('hunter2'));
    assert.equal((await latestRun()).id, before);
  });

  it('finds the token in the Terraform credentials file', async () => {
    const { code, stderr } = await exec(['--workspace', `${org}/network`, '--', 'true'], { TF_TOKEN_127_0_0_1: runner.token });
    assert.equal(code, 2, 'a host with a port has no TF_TOKEN_ name');
    assert.match(stderr, /no token for 127\.0\.0\.1:\d+/);
    const host = new URL(address).host;
    fs.mkdirSync(path.join(home, '.terraform.d'), { recursive: true });
    fs.writeFileSync(path.join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials: { [host]: { token: runner.token } } }));
    const fromFile = await exec(['--workspace', `${org}/network`, '--', 'true'], {});
    assert.equal(fromFile.code, 0, fromFile.stderr);
  });

  it('exits 2 on a usage error and 1 when the server refuses, running nothing', async () => {
    assert.equal((await exec(['--', 'true'])).code, 2);
    const refused = await exec(['--workspace', `${org}/missing`, '--', 'touch', 'ran']);
    assert.equal(refused.code, 1);
    assert.ok(!fs.existsSync(path.join(configDir, 'ran')));
  });
});
