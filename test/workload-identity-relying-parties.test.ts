import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createUploadedConfigurationVersion } from './support/factories/runs.js';
import { createVarset } from './support/factories/varsets.js';
import { freePort, ROOT } from './support/processes.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import { execWithIssuer, resultLine, startIssuer } from './support/workload-identity.js';
import { rotateSigningKey } from '../src/workload-identity/service.js';

/**
 * Real relying parties of varsetd's workload identity tokens: an OpenID Connect verifier built
 * on github.com/coreos/go-oidc/v3 (scripts/oidc-verifier.sh), and boto3's own web identity
 * credential chain inside `varsetd exec`, exchanging the token at moto's STS server
 * (scripts/install-moto.sh).
 */

const TTL_MS = 8_000;
const ROLE = 'arn:aws:iam::123456789012:role/varsetd-run';

function run(
  command: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The verifier is built with Go; without it these tests cannot run, and say why. */
const GO_MISSING =
  spawnSync('go', ['version']).status === 0
    ? false
    : 'Go is not on PATH: scripts/oidc-verifier.sh needs it to build the go-oidc verifier';

describe(`workload identity with real relying parties (${storeKind})`, { skip: GO_MISSING }, () => {
  let verifier: string;
  let motoBin: string;
  let t: TestApp;
  let issuer: string;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  let logs = '';
  let configDir: string;

  before(async () => {
    verifier = execFileSync('bash', [path.join(ROOT, 'scripts/oidc-verifier.sh')], { encoding: 'utf8' }).trim();
    motoBin = execFileSync('bash', [path.join(ROOT, 'scripts/install-moto.sh')], { encoding: 'utf8' }).trim();
    const stream = new Writable({ write: (chunk, _encoding, done) => ((logs += String(chunk)), done()) });
    ({ t, issuer } = await startIssuer(TTL_MS, { logger: { level: 'trace', stream } }));
    org = await t.createOrganization();
    ws = await t.createWorkspace(org, { name: 'network' });
    runner = await teamWithToken(t, org);
    await grantWorkspace(t, runner.teamId, ws, { access: 'plan' });
    await createVarset(t, org, {
      attributes: { global: true },
      vars: [
        { key: 'TFC_AWS_PROVIDER_AUTH', category: 'env', value: 'true' },
        { key: 'TFC_AWS_RUN_ROLE_ARN', category: 'env', value: ROLE },
      ],
    });
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-identity-config-'));
    fs.writeFileSync(path.join(configDir, 'main.tf'), '');
  });
  after(async () => {
    await (t as TestApp | undefined)?.close();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });

  /** Runs `work` with moto's STS server listening at the address it is given; stopped afterwards. */
  async function withMoto(work: (sts: string) => Promise<void>): Promise<void> {
    const motoPort = await freePort();
    const moto = spawn(path.join(motoBin, 'python'), ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(motoPort)], {
      stdio: 'ignore',
    });
    try {
      const sts = `http://127.0.0.1:${motoPort}`;
      for (let i = 0; ; i++) {
        if (
          (await fetch(sts)
            .then((r) => r.status)
            .catch(() => 0)) !== 0
        )
          break;
        assert.ok(i < 100, "moto's server did not start");
        await sleep(100);
      }
      await work(sts);
    } finally {
      moto.kill('SIGTERM');
    }
  }

  /** `varsetd exec` on a workspace of `org` running a Python script with boto3 against `sts`; what it printed after `RESULT `. */
  async function execPython(sts: string, workspace: string, script: string) {
    fs.writeFileSync(path.join(configDir, 'script.py'), script);
    const result = await execWithIssuer({
      issuer,
      token: runner.token,
      cwd: configDir,
      workspace: `${org}/${workspace}`,
      command: [path.join(motoBin, 'python'), 'script.py'],
      env: { AWS_DEFAULT_REGION: 'us-east-1', AWS_ENDPOINT_URL_STS: sts, AWS_EC2_METADATA_DISABLED: 'true' },
    });
    assert.equal(result.code, 0, result.stderr + result.stdout);
    return { result, seen: resultLine(result.stdout) };
  }

  async function newRun(): Promise<string> {
    const cv = await createUploadedConfigurationVersion(t, ws);
    const body = {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: ws } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      },
    };
    const res = await t.post('/api/v2/runs', body, { token: runner.token });
    expectStatus(res, 201);
    return res.body.data.id;
  }
  async function mint(runId: string, phase = 'plan'): Promise<string> {
    const res = await t.post(
      `/api/v2/runs/${runId}/actions/workload-identity-token`,
      { phase, target: 'aws' },
      { token: runner.token },
    );
    expectStatus(res, 200);
    return res.body.data.attributes.token;
  }
  async function verify(tokens: string[], audience = 'aws.workload.identity', skipExpiry = false): Promise<string[]> {
    const args = ['-issuer', issuer, '-audience', audience, ...(skipExpiry ? ['-skip-expiry'] : [])];
    const { code, stdout, stderr } = await run(verifier, args, { input: `${tokens.join('\n')}\n` });
    assert.equal(code, 0, stderr);
    return stdout.trim().split('\n');
  }

  it("go-oidc discovers the issuer and verifies a run's token: signature, issuer, audience, expiry", async () => {
    const runId = await newRun();
    const [line] = await verify([await mint(runId, 'apply')]);
    assert.match(line!, /^ok /);
    const claims = JSON.parse(line!.slice(3));
    assert.equal(claims.iss, issuer);
    assert.equal(claims.aud, 'aws.workload.identity');
    assert.match(claims.sub, new RegExp(`^organization:${org}:project:[^:]+:workspace:network:run_phase:apply$`));
    assert.equal(claims.terraform_run_id, runId);
  });

  it('go-oidc refuses a token for another audience, and one after its run ended and it expired', async () => {
    const runId = await newRun();
    const token = await mint(runId);
    const [other] = await verify([token], 'sts.amazonaws.com');
    assert.match(other!, /^refused .*audience/);
    expectStatus(
      await t.post(`/api/v2/runs/${runId}/actions/finish`, { 'exit-code': 0 }, { token: runner.token }),
      200,
    );
    const exp = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp * 1000;
    await sleep(Math.max(0, exp - Date.now()) + 1100);
    const [expired] = await verify([token]);
    assert.match(expired!, /^refused .*expired/);
  });

  it('under load, tokens signed before a rotation verify until they expire, and a retired key verifies none', async () => {
    const runId = await newRun();
    const before = await Promise.all(Array.from({ length: 10 }, () => mint(runId)));
    const during = await Promise.all([
      rotateSigningKey(t.store, t.app.sealer, 0, TTL_MS).then(() => mint(runId)),
      ...Array.from({ length: 20 }, () => mint(runId)),
    ]);
    const minted = [...before, ...during];
    const kidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid as string;
    assert.equal(new Set(minted.map(kidOf)).size, 2, 'tokens of the key before the rotation and of the one after');
    assert.deepEqual(
      (await verify(minted)).filter((line) => !line.startsWith('ok ')),
      [],
    );
    // Another rotation: every key that signed the tokens above stops, and is unpublished once its tokens have expired.
    const current = await rotateSigningKey(t.store, t.app.sealer, 0, TTL_MS);
    const fresh = await mint(runId);
    assert.equal(kidOf(fresh), current.id);
    await sleep(TTL_MS + 1100);
    const lines = await verify([...minted, fresh], 'aws.workload.identity', true);
    assert.deepEqual(
      lines.slice(0, minted.length).filter((line) => !/^refused .*(key|signature)/i.test(line)),
      [],
    );
    assert.match(lines[minted.length]!, /^ok /, 'the signing key still verifies, expiry aside');
  });

  it("boto3 inside varsetd exec exchanges the run's token at STS for TFC_AWS_RUN_ROLE_ARN's credentials, with no AWS key stored", async () => {
    await withMoto(async (sts) => {
      const script = [
        'import boto3, json, os, stat',
        "file = os.environ['AWS_WEB_IDENTITY_TOKEN_FILE']",
        'mode = stat.S_IMODE(os.stat(file).st_mode)',
        "identity = boto3.client('sts').get_caller_identity()",
        "print('RESULT ' + json.dumps({'arn': identity['Arn'], 'file': file, 'mode': mode, 'role': os.environ['AWS_ROLE_ARN']}))",
      ].join('\n');
      const { result, seen } = await execPython(sts, 'network', script);
      const runId = (await t.get(`/api/v2/workspaces/${ws}/runs`)).body.data[0].id;
      assert.equal(seen.arn, `arn:aws:sts::123456789012:assumed-role/varsetd-run/${runId}`);
      assert.equal(seen.role, ROLE);
      assert.equal(seen.mode, 0o600);
      assert.equal(fs.existsSync(seen.file), false, 'the token file is removed once the command ended');
      assert.equal(fs.existsSync(path.dirname(seen.file)), false);
      assert.doesNotMatch(result.stdout + result.stderr, /eyJ[\w-]+\.eyJ/, 'varsetd exec prints no token');
    });
  });

  it("boto3 given an alias's shared config file from tfc_aws_dynamic_credentials gets the alias's role, the default's the default role", async () => {
    await withMoto(async (sts) => {
      const aliased = await t.createWorkspace(org, { name: 'aliased' });
      await grantWorkspace(t, runner.teamId, aliased, { access: 'plan' });
      await createVarset(t, org, {
        workspaces: [aliased],
        vars: [
          { key: 'TFC_AWS_PROVIDER_AUTH_STAGING', category: 'env', value: 'true' },
          { key: 'TFC_AWS_RUN_ROLE_ARN_STAGING', category: 'env', value: 'arn:aws:iam::210987654321:role/staging' },
        ],
      });
      // Each profile only through its shared config file: the default configuration's
      // environment would win over any file in the SDK's credential chain.
      const script = [
        'import boto3, json, os',
        "for name in ('AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ROLE_ARN', 'AWS_ROLE_SESSION_NAME'): os.environ.pop(name)",
        "given = json.loads(os.environ['TF_VAR_tfc_aws_dynamic_credentials'])",
        'def whoami(config):',
        "    os.environ['AWS_CONFIG_FILE'] = config",
        "    return boto3.Session().client('sts').get_caller_identity()['Arn']",
        "arns = {'default': whoami(given['default']['shared_config_file'])}",
        "arns.update({alias: whoami(c['shared_config_file']) for alias, c in given['aliases'].items()})",
        "print('RESULT ' + json.dumps(arns))",
      ].join('\n');
      const { seen } = await execPython(sts, 'aliased', script);
      const runId = (await t.get(`/api/v2/workspaces/${aliased}/runs`)).body.data[0].id;
      assert.deepEqual(seen, {
        default: `arn:aws:sts::123456789012:assumed-role/varsetd-run/${runId}`,
        STAGING: `arn:aws:sts::210987654321:assumed-role/staging/${runId}`,
      });
    });
  });

  it("an alias's Vault login (go-oidc verifying its token) leaves a Vault token in tfc_vault_dynamic_credentials's token_filename", async () => {
    const login = spawn(
      verifier,
      [
        '-issuer',
        issuer,
        '-audience',
        'secrets.vault.example.com',
        '-vault-listen',
        '127.0.0.1:0',
        '-vault-auth-path',
        'jwt',
        '-vault-role',
        'reader',
        '-vault-namespace',
        'team-b',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const vaultAddress = await new Promise<string>((resolve, reject) => {
        login.stdout.once('data', (chunk) => resolve(/listening (\S+)/.exec(String(chunk))![1]!));
        login.once('exit', () => reject(new Error('the Vault-compatible login did not start')));
      });
      const secrets = await t.createWorkspace(org, { name: 'vault-alias' });
      await grantWorkspace(t, runner.teamId, secrets, { access: 'plan' });
      await createVarset(t, org, {
        workspaces: [secrets],
        vars: [
          { key: 'TFC_VAULT_PROVIDER_AUTH_SECRETS', category: 'env', value: 'true' },
          { key: 'TFC_VAULT_ADDR_SECRETS', category: 'env', value: vaultAddress },
          { key: 'TFC_VAULT_NAMESPACE_SECRETS', category: 'env', value: 'team-b' },
          { key: 'TFC_VAULT_RUN_ROLE_SECRETS', category: 'env', value: 'reader' },
          { key: 'TFC_VAULT_WORKLOAD_IDENTITY_AUDIENCE_SECRETS', category: 'env', value: 'secrets.vault.example.com' },
        ],
      });
      const script = `const fs = require('node:fs');
const given = JSON.parse(process.env.TF_VAR_tfc_vault_dynamic_credentials);
const alias = given.aliases.SECRETS;
const mode = fs.statSync(alias.token_filename).mode & 0o777;
fetch(alias.address + '/v1/auth/token/lookup-self', { headers: { 'X-Vault-Token': fs.readFileSync(alias.token_filename, 'utf8') } })
  .then((r) => r.json()).then((j) => console.log('RESULT ' + JSON.stringify({ meta: j.data.meta, given, mode, vaultAddr: process.env.VAULT_ADDR ?? null })))`;
      const result = await run(
        process.execPath,
        [
          '--import',
          import.meta.resolve('tsx'),
          path.join(ROOT, 'src/main.ts'),
          'exec',
          '--workspace',
          `${org}/vault-alias`,
          '--',
          process.execPath,
          '-e',
          script,
        ],
        {
          env: { PATH: process.env.PATH, HOME: configDir, VARSETD_ADDRESS: issuer, VARSETD_TOKEN: runner.token },
          cwd: configDir,
        },
      );
      assert.equal(result.code, 0, result.stderr + result.stdout);
      const seen = JSON.parse(
        result.stdout
          .split('\n')
          .find((l) => l.startsWith('RESULT '))!
          .slice('RESULT '.length),
      );
      const runId = (await t.get(`/api/v2/workspaces/${secrets}/runs`)).body.data[0].id;
      assert.equal(seen.meta.role, 'reader');
      assert.equal(seen.meta.run, runId);
      assert.match(seen.meta.sub, /:workspace:vault-alias:run_phase:plan$/);
      assert.equal(seen.mode, 0o600);
      assert.equal(seen.vaultAddr, null, 'no default configuration, so no VAULT_ADDR');
      assert.deepEqual(seen.given, {
        default: { token_filename: '', address: '', namespace: '', ca_cert_file: '' },
        aliases: {
          SECRETS: {
            token_filename: seen.given.aliases.SECRETS.token_filename,
            address: vaultAddress,
            namespace: 'team-b',
            ca_cert_file: '',
          },
        },
      });
      assert.equal(fs.existsSync(seen.given.aliases.SECRETS.token_filename), false);
      assert.doesNotMatch(result.stdout + result.stderr, /hvs\.|eyJ[\w-]+\.eyJ/, 'varsetd exec prints no token');
    } finally {
      login.kill('SIGTERM');
    }
  });

  it("varsetd exec logs in to a Vault-compatible JWT login (go-oidc verifying the token) and gives the command Vault's token; a role the login refuses stops the run", async () => {
    const login = spawn(
      verifier,
      [
        '-issuer',
        issuer,
        '-audience',
        'vault.workload.identity',
        '-vault-listen',
        '127.0.0.1:0',
        '-vault-auth-path',
        'tfc',
        '-vault-role',
        'network-plan',
        '-vault-namespace',
        'team-a',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const vaultAddress = await new Promise<string>((resolve, reject) => {
        login.stdout.once('data', (chunk) => resolve(/listening (\S+)/.exec(String(chunk))![1]!));
        login.once('exit', () => reject(new Error('the Vault-compatible login did not start')));
      });
      const vaulted = await t.createWorkspace(org, { name: 'vaulted' });
      await grantWorkspace(t, runner.teamId, vaulted, { access: 'plan' });
      await createVarset(t, org, {
        workspaces: [vaulted],
        vars: [
          { key: 'TFC_VAULT_PROVIDER_AUTH', category: 'env', value: 'true' },
          { key: 'TFC_VAULT_ADDR', category: 'env', value: vaultAddress },
          { key: 'TFC_VAULT_NAMESPACE', category: 'env', value: 'team-a' },
          { key: 'TFC_VAULT_AUTH_PATH', category: 'env', value: 'tfc' },
          { key: 'TFC_VAULT_RUN_ROLE', category: 'env', value: 'network-plan' },
          { key: 'TFC_VAULT_APPLY_ROLE', category: 'env', value: 'network-apply' },
        ],
      });
      const script = `fetch(process.env.VAULT_ADDR + '/v1/auth/token/lookup-self', { headers: { 'X-Vault-Token': process.env.VAULT_TOKEN } })
        .then((r) => r.json()).then((j) => console.log('RESULT ' + JSON.stringify({ ...j.data.meta, namespace: process.env.VAULT_NAMESPACE })))`;
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: configDir,
        VARSETD_ADDRESS: issuer,
        VARSETD_TOKEN: runner.token,
      };
      const exec = (phase: string) =>
        run(
          process.execPath,
          [
            '--import',
            import.meta.resolve('tsx'),
            path.join(ROOT, 'src/main.ts'),
            'exec',
            '--workspace',
            `${org}/vaulted`,
            '--phase',
            phase,
            '--',
            process.execPath,
            '-e',
            script,
          ],
          {
            env,
            cwd: configDir,
          },
        );
      const planned = await exec('plan');
      assert.equal(planned.code, 0, planned.stderr + planned.stdout);
      const seen = JSON.parse(
        planned.stdout
          .split('\n')
          .find((l) => l.startsWith('RESULT '))!
          .slice('RESULT '.length),
      );
      const runId = (await t.get(`/api/v2/workspaces/${vaulted}/runs`)).body.data[0].id;
      assert.deepEqual(
        { ...seen, sub: undefined },
        { role: 'network-plan', run: runId, namespace: 'team-a', sub: undefined },
      );
      assert.match(seen.sub, /:workspace:vaulted:run_phase:plan$/);
      assert.doesNotMatch(planned.stdout + planned.stderr, /hvs\.|eyJ[\w-]+\.eyJ/, 'varsetd exec prints no token');

      const refused = await exec('apply');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /Vault refused the login at .*\/v1\/auth\/tfc\/login as role network-apply \(400\)/);
      assert.equal((await t.get(`/api/v2/workspaces/${vaulted}/runs`)).body.data[0].attributes.status, 'errored');
    } finally {
      login.kill('SIGTERM');
    }
  });

  it('never puts a token in the logs, the audit trail, /metrics or the comments', async () => {
    const runId = await newRun();
    const token = await mint(runId);
    const signature = token.split('.')[2]!;
    const trail = await t.get(
      `/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}&page%5Bsize%5D=100`,
    );
    const metrics = await t.getRaw('/metrics');
    const comments = await t.get(`/api/v2/runs/${runId}/comments`);
    for (const [where, text] of [
      ['logs', logs],
      ['audit trail', JSON.stringify(trail.body)],
      ['metrics', metrics.body],
      ['comments', JSON.stringify(comments.body)],
    ] as const) {
      assert.ok(!text.includes(signature), `no token in the ${where}`);
      assert.doesNotMatch(text, /eyJ[\w-]+\.eyJ[\w-]+\./, `no token in the ${where}`);
    }
    assert.ok(logs.includes('workload-identity-token'), 'the logs were captured');
  });
});
