import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestApp } from './support/app.js';
import { grantWorkspace, teamWithToken } from './support/factories/access.js';
import { createVarset } from './support/factories/varsets.js';
import { storeKind } from './support/store.js';
import { execWithIssuer, publishedClaims, resultLine, startIssuer } from './support/workload-identity.js';

/**
 * Google Cloud's and Azure's dynamic credentials as `varsetd exec` gives them: a real server, and
 * a command that prints its environment and the files it names.
 */

const PROVIDER = 'projects/123456/locations/global/workloadIdentityPools/tfc/providers/varsetd';

/** What the command sees: the variables of both clouds, and each file they name with its mode and content. */
const SHOW = `const fs = require('node:fs');
const names = ['GOOGLE_APPLICATION_CREDENTIALS', 'ARM_OIDC_TOKEN_FILE_PATH', 'ARM_CLIENT_ID', 'ARM_USE_OIDC', 'AZURE_FEDERATED_TOKEN_FILE', 'AZURE_CLIENT_ID', 'ARM_TENANT_ID'];
const env = Object.fromEntries(names.filter((n) => n in process.env).map((n) => [n, process.env[n]]));
const show = (file) => ({ mode: fs.statSync(file).mode & 0o777, content: fs.readFileSync(file, 'utf8') });
const files = {};
for (const n of ['GOOGLE_APPLICATION_CREDENTIALS', 'ARM_OIDC_TOKEN_FILE_PATH']) if (env[n]) files[env[n]] = show(env[n]);
if (env.GOOGLE_APPLICATION_CREDENTIALS) { const f = JSON.parse(files[env.GOOGLE_APPLICATION_CREDENTIALS].content).credential_source.file; files[f] = show(f); }
const folder = env.GOOGLE_APPLICATION_CREDENTIALS ?? env.ARM_OIDC_TOKEN_FILE_PATH;
console.log('RESULT ' + JSON.stringify({ env, files, folderMode: folder && fs.statSync(require('node:path').dirname(folder)).mode & 0o777 }));`;

describe(`varsetd exec: Google Cloud and Azure dynamic credentials (${storeKind})`, () => {
  let t: TestApp;
  let issuer: string;
  let org: string;
  let runner: { teamId: string; token: string };
  let dir: string;

  before(async () => {
    ({ t, issuer } = await startIssuer(600_000));
    org = await t.createOrganization();
    runner = await teamWithToken(t, org);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-clouds-'));
    fs.writeFileSync(path.join(dir, 'main.tf'), '');
  });
  after(async () => {
    await (t as TestApp | undefined)?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function workspaceWith(name: string, vars: Record<string, string>): Promise<string> {
    const ws = await t.createWorkspace(org, { name });
    await grantWorkspace(t, runner.teamId, ws, { access: 'plan' });
    await createVarset(t, org, {
      workspaces: [ws],
      vars: Object.entries(vars).map(([key, value]) => ({ key, value, category: 'env' })),
    });
    return ws;
  }

  const exec = (workspace: string, extra: string[], command = [process.execPath, '-e', SHOW]) =>
    execWithIssuer({ issuer, token: runner.token, cwd: dir, workspace: `${org}/${workspace}`, extra, command });
  const claimsOf = (token: string) => publishedClaims(issuer, token);
  const latestRun = async (ws: string) => (await t.get(`/api/v2/workspaces/${ws}/runs`)).body.data[0];

  it("writes Google's external account credentials and Azure's federated token, 0600 in a private folder removed after, by phase", async () => {
    const ws = await workspaceWith('clouds', {
      TFC_GCP_PROVIDER_AUTH: 'true',
      TFC_GCP_WORKLOAD_PROVIDER_NAME: PROVIDER,
      TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL: 'run@proj.iam.gserviceaccount.com',
      TFC_GCP_APPLY_SERVICE_ACCOUNT_EMAIL: 'apply@proj.iam.gserviceaccount.com',
      TFC_AZURE_PROVIDER_AUTH: 'true',
      TFC_AZURE_RUN_CLIENT_ID: 'run-client',
      TFC_AZURE_PLAN_CLIENT_ID: 'plan-client',
      ARM_TENANT_ID: 'tenant-of-the-user',
    });
    for (const [phase, account, client] of [
      ['plan', 'run@proj.iam.gserviceaccount.com', 'plan-client'],
      ['apply', 'apply@proj.iam.gserviceaccount.com', 'run-client'],
    ] as const) {
      const { code, stdout, stderr } = await exec('clouds', ['--phase', phase]);
      assert.equal(code, 0, stderr + stdout);
      assert.doesNotMatch(
        stdout.replace(/^RESULT .*$/m, '') + stderr,
        /eyJ[\w-]+\.eyJ/,
        'varsetd exec prints no token',
      );
      const { env, files, folderMode } = resultLine(stdout);
      const runId = (await latestRun(ws)).id;
      assert.equal(folderMode, 0o700);
      for (const [file, { mode }] of Object.entries<{ mode: number }>(files)) {
        assert.equal(mode, 0o600, file);
        assert.equal(fs.existsSync(file), false, `${file} is removed once the command ended`);
        assert.equal(fs.existsSync(path.dirname(file)), false);
      }
      assert.equal(new Set(Object.keys(files).map((f) => path.dirname(f))).size, 1, 'one folder for every file');

      const google = JSON.parse(files[env.GOOGLE_APPLICATION_CREDENTIALS].content);
      const tokenFile = google.credential_source.file;
      assert.deepEqual(google, {
        type: 'external_account',
        audience: `//iam.googleapis.com/${PROVIDER}`,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        token_url: 'https://sts.googleapis.com/v1/token',
        credential_source: { file: tokenFile, format: { type: 'text' } },
        service_account_impersonation_url: `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${account}:generateAccessToken`,
      });
      const subject = new RegExp(`^organization:${org}:project:[^:]+:workspace:clouds:run_phase:${phase}$`);
      const gcp = await claimsOf(files[tokenFile].content);
      assert.equal(gcp.aud, `//iam.googleapis.com/${PROVIDER}`);
      assert.match(gcp.sub, subject);
      assert.equal(gcp.terraform_run_id, runId);

      assert.deepEqual(env, {
        GOOGLE_APPLICATION_CREDENTIALS: env.GOOGLE_APPLICATION_CREDENTIALS,
        ARM_OIDC_TOKEN_FILE_PATH: env.ARM_OIDC_TOKEN_FILE_PATH,
        ARM_CLIENT_ID: client,
        ARM_USE_OIDC: 'true',
        AZURE_FEDERATED_TOKEN_FILE: env.ARM_OIDC_TOKEN_FILE_PATH,
        AZURE_CLIENT_ID: client,
        ARM_TENANT_ID: 'tenant-of-the-user',
      });
      const azure = await claimsOf(files[env.ARM_OIDC_TOKEN_FILE_PATH].content);
      assert.equal(azure.aud, 'api://AzureADTokenExchange');
      assert.match(azure.sub, subject);
    }
  });

  it('takes the audiences from TFC_GCP_WORKLOAD_IDENTITY_AUDIENCE and TFC_AZURE_WORKLOAD_IDENTITY_AUDIENCE', async () => {
    await workspaceWith('audiences', {
      TFC_GCP_PROVIDER_AUTH: 'true',
      TFC_GCP_WORKLOAD_PROVIDER_NAME: PROVIDER,
      TFC_GCP_WORKLOAD_IDENTITY_AUDIENCE: 'gcp.example.com',
      TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL: 'run@proj.iam.gserviceaccount.com',
      TFC_AZURE_PROVIDER_AUTH: 'true',
      TFC_AZURE_WORKLOAD_IDENTITY_AUDIENCE: 'azure.example.com',
      TFC_AZURE_RUN_CLIENT_ID: 'run-client',
    });
    const { code, stdout, stderr } = await exec('audiences', []);
    assert.equal(code, 0, stderr + stdout);
    const { env, files } = resultLine(stdout);
    const google = JSON.parse(files[env.GOOGLE_APPLICATION_CREDENTIALS].content);
    assert.equal(
      google.audience,
      `//iam.googleapis.com/${PROVIDER}`,
      "the security token service's audience stays the provider",
    );
    assert.equal((await claimsOf(files[google.credential_source.file].content)).aud, 'gcp.example.com');
    assert.equal((await claimsOf(files[env.ARM_OIDC_TOKEN_FILE_PATH].content)).aud, 'azure.example.com');
  });

  it('refuses a missing required variable by name before the command runs, and errors the run', async () => {
    const marker = path.join(dir, 'ran');
    for (const [name, vars, message] of [
      [
        'no-client',
        { TFC_AZURE_PROVIDER_AUTH: 'true', TFC_AZURE_APPLY_CLIENT_ID: 'apply-only' },
        'neither TFC_AZURE_PLAN_CLIENT_ID nor TFC_AZURE_RUN_CLIENT_ID is set',
      ],
      [
        'no-provider',
        { TFC_GCP_PROVIDER_AUTH: 'true', TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL: 'run@proj.iam.gserviceaccount.com' },
        'TFC_GCP_WORKLOAD_PROVIDER_NAME is not set',
      ],
      [
        'no-account',
        { TFC_GCP_PROVIDER_AUTH: 'true', TFC_GCP_WORKLOAD_PROVIDER_NAME: PROVIDER },
        'neither TFC_GCP_PLAN_SERVICE_ACCOUNT_EMAIL nor TFC_GCP_RUN_SERVICE_ACCOUNT_EMAIL is set',
      ],
    ] as const) {
      const ws = await workspaceWith(name, vars);
      const { code, stderr } = await exec(
        name,
        [],
        [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, '')`],
      );
      assert.equal(code, 1, name);
      assert.ok(
        stderr.includes(
          `varsetd exec: TFC_${name === 'no-client' ? 'AZURE' : 'GCP'}_PROVIDER_AUTH is true, but ${message}`,
        ),
        stderr,
      );
      assert.equal(fs.existsSync(marker), false, 'the command did not run');
      assert.equal((await latestRun(ws)).attributes.status, 'errored');
    }
  });

  it('--dry-run names both, by phase, and mints nothing', async () => {
    const { code, stdout } = await exec('clouds', ['--phase', 'apply', '--dry-run']);
    assert.equal(code, 0);
    assert.match(
      stdout,
      /^ {2}Google Cloud: the run's apply token exchanged at projects\/123456\/.* for service account apply@proj\.iam\.gserviceaccount\.com, as GOOGLE_APPLICATION_CREDENTIALS/m,
    );
    assert.match(
      stdout,
      /^ {2}Azure: the run's apply token as ARM_OIDC_TOKEN_FILE_PATH and AZURE_FEDERATED_TOKEN_FILE, ARM_CLIENT_ID=AZURE_CLIENT_ID=run-client, ARM_USE_OIDC=true$/m,
    );
    assert.doesNotMatch(stdout, /eyJ/);
  });
});
