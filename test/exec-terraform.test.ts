import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { readCertificate } from '../src/http/tls.js';
import type { Store } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { createOrganization } from './support/factories/organizations.js';
import { createVarset } from './support/factories/varsets.js';
import { ROOT } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, injectClient, type Client } from './support/requests.js';
import { storeKind } from './support/store.js';

/** `varsetd exec` against a listening varsetd, running real Terraform 1.0.3 (scripts/terraform.sh fetches it once). */

/** scripts/terraform.sh fetches a linux x86-64 build of Terraform: elsewhere these tests cannot run, and say why. */
const TERRAFORM_UNAVAILABLE =
  process.platform === 'linux' && process.arch === 'x64'
    ? false
    : `scripts/terraform.sh provides Terraform for linux-x64 only, and this is ${process.platform}-${process.arch}`;
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

describe(`varsetd exec with Terraform (${storeKind})`, { skip: TERRAFORM_UNAVAILABLE }, () => {
  let terraform: string;
  let testApp: TestApp;
  let store: Store;
  let app: FastifyInstance;
  let client: Client;
  let address: string;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  let globalSetId: string;
  let configDir: string;
  let home: string;

  before(async () => {
    terraform = execFileSync('bash', [path.join(ROOT, 'scripts/terraform.sh')], { encoding: 'utf8' }).trim();
    // Upload URLs must name the address it listens on, so they come from each request.
    testApp = await TestApp.start({ publicUrl: undefined });
    ({ app, store } = testApp);
    address = await app.listen({ host: '127.0.0.1', port: 0 });
    client = injectClient(app);
    org = await createOrganization(client);
    const res = await client.post(`/api/v2/organizations/${org}/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'network' } },
    });
    expectStatus(res, 201);
    ws = res.body.data.id;
    runner = await teamWithToken(client, org);
    await grantWorkspace(client, runner.teamId, ws, { access: 'plan' });
    globalSetId = (
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
      })
    ).id;
    const wsVar = await client.post(`/api/v2/workspaces/${ws}/vars`, {
      data: { type: 'vars', attributes: { key: 'region', value: 'from-workspace', category: 'terraform' } },
    });
    expectStatus(wsVar, 201);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-exec-'));
    fs.writeFileSync(path.join(configDir, 'main.tf'), MAIN_TF);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-home-'));
  });
  after(async () => {
    await (testApp as TestApp | undefined)?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  interface ExecRun {
    child: ReturnType<typeof spawn>;
    done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  }
  function startExec(args: string[], env: Record<string, string> = { VARSETD_TOKEN: runner.token }): ExecRun {
    const child = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), path.join(ROOT, 'src/main.ts'), 'exec', ...args],
      {
        cwd: configDir,
        env: {
          PATH: `${path.dirname(terraform)}:${process.env.PATH}`,
          HOME: home,
          VARSETD_ADDRESS: address,
          TF_IN_AUTOMATION: '1',
          CHECKPOINT_DISABLE: '1',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    return { child, done: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))) };
  }
  const exec = (args: string[], env?: Record<string, string>) => startExec(args, env).done;
  const tfvarsFiles = () => fs.readdirSync(configDir).filter((name) => name.endsWith('.auto.tfvars'));
  const latestRun = async () => (await client.get(`/api/v2/workspaces/${ws}/runs`)).body.data[0];
  const commentsOf = async (runId: string) =>
    ((await client.get(`/api/v2/runs/${runId}/comments`)).body.data as any[]).map((c) => c.attributes.body);
  const terraformBin = () => path.basename(terraform);

  it("gives Terraform exactly the stored values, with the precedence of the run's effective variables", async () => {
    const script = `${terraformBin()} apply -no-color -auto-approve -input=false && ${terraformBin()} output -json all > outputs.json && printf %s "$AWS_SECRET_ACCESS_KEY" > env-secret.txt && printf %s "$PLAIN_ENV" > env-plain.txt && stat -c %a zzz_varsetd_*.auto.tfvars > mode.txt`;
    const { code, stdout, stderr } = await exec([
      '--workspace',
      `${org}/network`,
      '--message',
      'exec test',
      '--',
      'sh',
      '-c',
      script,
    ]);
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
    for (const secret of [SECRET, ENV_SECRET])
      assert.ok(!stdout.includes(secret) && !stderr.includes(secret), 'a sensitive value was printed');

    const run = await latestRun();
    assert.equal(run.attributes.status, 'planned');
    assert.equal(run.attributes.message, 'exec test');
    const effective = (await client.get(`/api/v2/runs/${run.id}/effective-variables`)).body.data as any[];
    const plainStrings = effective.filter(
      (v) => v.attributes.category === 'terraform' && !v.attributes.sensitive && !v.attributes.hcl,
    );
    assert.deepEqual(plainStrings.map((v) => v.attributes.key).sort(), ['region', 'tricky']);
    for (const { attributes } of plainStrings)
      assert.equal(outputByKey.get(attributes.key), attributes.value, attributes.key);
    assert.equal(effective.find((v) => v.attributes.key === 'region').attributes.source.type, 'workspace');
    const [comment] = await commentsOf(run.id);
    // The run names the version of each set its values came from: the global set, at its first version.
    assert.match(
      comment,
      /^`sh -c '.*'` exited with 0 after \d+\.\d s\.\n\nValues from variable sets set-[\w-]+ \(version 1\)\.$/s,
    );
    assert.match(stderr, /^varsetd exec: values from variable sets set-[\w-]+ \(version 1\)$/m);
    const events = ((await client.get(`/api/v2/runs/${run.id}/run-events`)).body.data as any[]).map(
      (e) => e.attributes.action,
    );
    assert.deepEqual(events, ['created', 'variables-opened', 'planning', 'planned', 'commented']);
    fs.rmSync(path.join(configDir, 'terraform.tfstate'), { force: true });
  });

  /** The names in the archive uploaded for the latest run, as tar lists them. */
  async function uploadedNames(): Promise<string[]> {
    const run = await latestRun();
    const download = await app.inject({
      method: 'GET',
      url: `/api/v2/configuration-versions/${run.relationships['configuration-version'].data.id}/download`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(download.statusCode, 200, download.body);
    // Literal quoting lists non-ASCII names as they are, whatever the locale.
    const listing = spawnSync('tar', ['--quoting-style=literal', '-tz'], {
      input: download.rawPayload,
      encoding: 'utf8',
    });
    assert.equal(listing.status, 0, `tar cannot read the uploaded archive: ${listing.stderr}`);
    return listing.stdout.split('\n').filter(Boolean);
  }

  it('uploads the directory without .terraform, .git and what .terraformignore leaves out', async () => {
    // Over 100 bytes and not ASCII: only a PAX header carries such a name.
    const longName = `${'très-long-nom-de-fichier-'.repeat(5)}😀.txt`;
    assert.ok(Buffer.byteLength(longName) > 100);
    const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-upload-'));
    const write = (name: string, content = 'x') => {
      fs.mkdirSync(path.dirname(path.join(uploadDir, name)), { recursive: true });
      fs.writeFileSync(path.join(uploadDir, name), content);
    };
    const uploadWithExec = async () => {
      const { code, stderr } = await exec(['--workspace', `${org}/network`, '--dir', uploadDir, '--', 'true']);
      assert.equal(code, 0, stderr);
      return (await uploadedNames()).sort();
    };
    try {
      write('main.tf', MAIN_TF);
      write('.terraform/junk');
      write('.git/x');
      write('secret.txt');
      // A tfvars file of an earlier varsetd exec that could not remove it.
      write('zzz_varsetd_old.auto.tfvars', 'region = "left over"\n');
      write(longName);

      // Without a .terraformignore, .git/ and .terraform/ are left out.
      assert.deepEqual(await uploadWithExec(), ['main.tf', 'secret.txt', longName].sort());

      // A .terraformignore replaces those defaults: what it names is left out, and only that.
      write('.terraformignore', '# kept out of uploads\nsecret.txt\n.terraform/\n');
      assert.deepEqual(await uploadWithExec(), ['.git/', '.git/x', '.terraformignore', 'main.tf', longName].sort());
    } finally {
      fs.rmSync(uploadDir, { recursive: true, force: true });
    }
  });

  it("exits with a failing command's code, errors the run and removes the file", async () => {
    const { code } = await exec([
      '--workspace',
      `${org}/network`,
      '--',
      'sh',
      '-c',
      'test -f zzz_varsetd_*.auto.tfvars && exit 3',
    ]);
    assert.equal(code, 3);
    assert.deepEqual(tfvarsFiles(), []);
    const run = await latestRun();
    assert.equal(run.attributes.status, 'errored');
    assert.match((await commentsOf(run.id))[0], /exited with 3 after/);
  });

  it('keeps no sensitive value of the run in its comment, though the command line holds one', async () => {
    const { code, stderr } = await exec([
      '--workspace',
      `${org}/network`,
      '--',
      'sh',
      '-c',
      'exit 0',
      'sh',
      ENV_SECRET,
      `--token=${SECRET}`,
    ]);
    assert.equal(code, 0, stderr);
    const [comment] = await commentsOf((await latestRun()).id);
    assert.ok(comment !== undefined && !comment.includes(ENV_SECRET) && !comment.includes(SECRET), comment);
    assert.match(comment, /^`sh -c 'exit 0' sh '\(sensitive\)' '--token=\(sensitive\)'` exited with 0 after/);
  });

  it('errors the run, and runs nothing, when the variables file cannot be written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-exec-locked-'));
    fs.writeFileSync(path.join(dir, 'main.tf'), MAIN_TF);
    // A folder nothing may be written in: immutable for root (who ignores modes), read-only for anyone else.
    const lock = (on: boolean) =>
      process.getuid?.() === 0
        ? execFileSync('chattr', [on ? '+i' : '-i', dir])
        : fs.chmodSync(dir, on ? 0o555 : 0o755);
    lock(true);
    try {
      const { code, stderr } = await exec([
        '--dir',
        dir,
        '--workspace',
        `${org}/network`,
        '--',
        'sh',
        '-c',
        'echo ran > ran.txt',
      ]);
      assert.equal(code, 1, stderr);
      assert.match(stderr, /zzz_varsetd_/);
      assert.ok(!fs.existsSync(path.join(dir, 'ran.txt')));
      const run = await latestRun();
      assert.equal(run.attributes.status, 'errored');
      const secrets = await client.get(`/api/v2/runs/${run.id}/opened-variables`, { token: runner.token });
      assert.equal(secrets.status, 409);
    } finally {
      lock(false);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`passes ${signal} on to the command, removes the file, and only the creating token reads the secrets meanwhile`, async () => {
      const execution = startExec(['--workspace', `${org}/network`, '--', 'sh', '-c', 'echo started; exec sleep 60']);
      const started = new Promise<boolean>((resolve) =>
        execution.child.stdout!.on('data', (chunk) => String(chunk).includes('started') && resolve(true)),
      );
      assert.ok(
        await Promise.race([started, execution.done.then(({ stderr }) => assert.fail(`exec ended early: ${stderr}`))]),
      );
      assert.equal(tfvarsFiles().length, 1);
      const run = await latestRun();
      assert.equal(run.attributes.status, 'planning');
      const others = [
        await teamToken(client, await ownersTeam(client, org)),
        await organizationToken(client, org),
        ADMIN_TOKEN,
      ];
      for (const token of others)
        assert.equal(
          (
            await app.inject({
              url: `/api/v2/runs/${run.id}/opened-variables`,
              headers: { authorization: `Bearer ${token}` },
            })
          ).statusCode,
          404,
        );
      const own = await app.inject({
        url: `/api/v2/runs/${run.id}/opened-variables`,
        headers: { authorization: `Bearer ${runner.token}` },
      });
      assert.equal(own.statusCode, 200);
      assert.ok(own.body.includes('hunter2'));
      execution.child.kill(signal);
      const { code } = await execution.done;
      assert.equal(code, 128 + os.constants.signals[signal]);
      assert.deepEqual(tfvarsFiles(), []);
      const finished = (await client.get(`/api/v2/runs/${run.id}`)).body.data;
      assert.equal(finished.attributes.status, 'errored');
      const after = await app.inject({
        url: `/api/v2/runs/${run.id}/opened-variables`,
        headers: { authorization: `Bearer ${runner.token}` },
      });
      assert.equal(after.statusCode, 409);
    });
  }

  it('reaches a varsetd served over HTTPS when SSL_CERT_FILE names its authority, and refuses it otherwise', async () => {
    const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-exec-tls-'));
    execFileSync('bash', [path.join(ROOT, 'scripts/make-test-certificate.sh'), certDir], { stdio: 'pipe' });
    const secure = await buildApp({
      store,
      sealer: app.sealer,
      tls: readCertificate({ certFile: path.join(certDir, 'cert.pem'), keyFile: path.join(certDir, 'key.pem') }),
    });
    try {
      await secure.listen({ host: '127.0.0.1', port: 0 });
      const httpsAddress = `https://127.0.0.1:${(secure.server.address() as { port: number }).port}`;
      const env = { VARSETD_TOKEN: runner.token, VARSETD_ADDRESS: httpsAddress };
      const trusted = await exec(
        ['--workspace', `${org}/network`, '--', 'sh', '-c', 'test "$AWS_SECRET_ACCESS_KEY" = "$EXPECTED"'],
        {
          ...env,
          SSL_CERT_FILE: path.join(certDir, 'ca.pem'),
          EXPECTED: ENV_SECRET,
        },
      );
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.equal((await latestRun()).attributes.status, 'planned');
      const untrusted = await exec(['--workspace', `${org}/network`, '--', 'true'], env);
      assert.equal(untrusted.code, 1, untrusted.stderr);
      assert.match(untrusted.stderr, /certificate/i);
    } finally {
      await secure.close();
      fs.rmSync(certDir, { recursive: true, force: true });
    }
  });

  it("puts Terraform's plan summary in the comment", async () => {
    const { code } = await exec([
      '--workspace',
      `${org}/network`,
      '--',
      'sh',
      '-c',
      'printf "\\033[1mPlan:\\033[0m 2 to add, 1 to change, 0 to destroy.\\n"',
    ]);
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
    assert.match(stdout, /^values from variable sets set-[\w-]+ \(version 1\)$/m);
    assert.ok(!stdout.includes(ENV_SECRET) && !stdout.includes('hunter2'));
    assert.equal((await latestRun()).id, before);
  });

  it('finds the token in the Terraform credentials file', async () => {
    const { code, stderr } = await exec(['--workspace', `${org}/network`, '--', 'true'], {
      TF_TOKEN_127_0_0_1: runner.token,
    });
    assert.equal(code, 2, 'a host with a port has no TF_TOKEN_ name');
    assert.match(stderr, /no token for 127\.0\.0\.1:\d+/);
    const host = new URL(address).host;
    fs.mkdirSync(path.join(home, '.terraform.d'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.terraform.d', 'credentials.tfrc.json'),
      JSON.stringify({ credentials: { [host]: { token: runner.token } } }),
    );
    const fromFile = await exec(['--workspace', `${org}/network`, '--', 'true'], {});
    assert.equal(fromFile.code, 0, fromFile.stderr);
  });

  it('exits 2 on a usage error and 1 when the server refuses, running nothing', async () => {
    assert.equal((await exec(['--', 'true'])).code, 2);
    const refused = await exec(['--workspace', `${org}/missing`, '--', 'touch', 'ran']);
    assert.equal(refused.code, 1);
    assert.ok(!fs.existsSync(path.join(configDir, 'ran')));
  });

  it('gives Terraform the sensitive value a rollback put back, and names the version it made, printing no secret', async () => {
    const vars = (await client.get(`/api/v2/varsets/${globalSetId}/relationships/vars?page%5Bsize%5D=100`)).body
      .data as any[];
    const secret = vars.find((v) => v.attributes.key === 'AWS_SECRET_ACCESS_KEY');
    const [current] = (await client.get(`/api/v2/varsets/${globalSetId}/versions`)).body.data;
    expectStatus(
      await client.patch(`/api/v2/varsets/${globalSetId}/relationships/vars/${secret.id}`, {
        data: { type: 'vars', attributes: { value: 'a-replacement-secret' } },
      }),
      200,
    );
    const rolledBack = await client.post(`/api/v2/varsets/${globalSetId}/actions/rollback`, {
      data: { type: 'varset-versions', id: current.id },
    });
    expectStatus(rolledBack, 200);
    const made = rolledBack.body.meta.version.number;
    const { code, stdout, stderr } = await exec([
      '--workspace',
      `${org}/network`,
      '--',
      'sh',
      '-c',
      'printf %s "$AWS_SECRET_ACCESS_KEY" > env-secret.txt',
    ]);
    assert.equal(code, 0, stderr);
    try {
      assert.equal(fs.readFileSync(path.join(configDir, 'env-secret.txt'), 'utf8'), ENV_SECRET);
    } finally {
      fs.rmSync(path.join(configDir, 'env-secret.txt'), { force: true });
    }
    assert.match(
      stderr,
      new RegExp(`^varsetd exec: values from variable sets set-[\\w-]+ \\(version ${made}\\)$`, 'm'),
    );
    assert.ok(!stdout.includes(ENV_SECRET) && !stderr.includes(ENV_SECRET), 'a sensitive value was printed');
    assert.ok(!JSON.stringify(rolledBack.body).includes(ENV_SECRET), 'a sensitive value in the rollback response');
  });
});
