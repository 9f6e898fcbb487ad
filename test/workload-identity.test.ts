import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { grantWorkspace, organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { createUploadedConfigurationVersion } from './support/factories/runs.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';
import { decodeToken } from './support/workload-identity.js';
import { listSigningKeys, rotateSigningKey } from '../src/workload-identity/service.js';

const ISSUER = 'http://127.0.0.1:1/varsetd';
const TTL_MS = 600_000;

describe(`workload identity tokens (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let ws: string;
  let runner: { teamId: string; token: string };
  before(async () => {
    t = await TestApp.start({ workloadIdentity: { issuer: ISSUER, tokenTtlMs: TTL_MS, runLifetimeMs: 3_600_000 } });
    org = await t.createOrganization();
    ws = await t.createWorkspace(org, { name: 'network' });
    runner = await teamWithToken(t, org);
    await grantWorkspace(t, runner.teamId, ws, { access: 'plan' });
    await createVarset(t, org, {
      attributes: { global: true },
      vars: [
        { key: 'TFC_AWS_PROVIDER_AUTH', category: 'env', value: 'true' },
        { key: 'TFC_AWS_RUN_ROLE_ARN', category: 'env', value: 'arn:aws:iam::123456789012:role/network' },
        { key: 'TFC_VAULT_PROVIDER_AUTH', category: 'env', value: 'true' },
        { key: 'TFC_VAULT_WORKLOAD_IDENTITY_AUDIENCE', category: 'env', value: 'vault.example.com' },
      ],
    });
  });
  after(async () => t.close());

  async function runBy(token: string, speculative = false): Promise<string> {
    const cv = await createUploadedConfigurationVersion(t, ws, { speculative });
    const body = {
      data: {
        type: 'runs',
        relationships: {
          workspace: { data: { type: 'workspaces', id: ws } },
          'configuration-version': { data: { type: 'configuration-versions', id: cv } },
        },
      },
    };
    const res = await t.post('/api/v2/runs', body, { token });
    expectStatus(res, 201);
    return res.body.data.id;
  }
  const mint = (run: string, token: string | undefined, body: object = { phase: 'plan', target: 'aws' }) =>
    t.post(`/api/v2/runs/${run}/actions/workload-identity-token`, body, { token: token as string });
  const jwks = async () => (await t.getRaw('/.well-known/jwks')).json();

  it('publishes its discovery document and key set without a token', async () => {
    const discovery = await t.getRaw('/.well-known/openid-configuration');
    assert.equal(discovery.statusCode, 200);
    const doc = discovery.json();
    assert.equal(doc.issuer, ISSUER);
    assert.equal(doc.jwks_uri, `${ISSUER}/.well-known/jwks`);
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256']);
    const keys = await t.getRaw('/.well-known/jwks');
    assert.equal(keys.statusCode, 200);
    assert.match(String(keys.headers['cache-control']), /max-age=/);
  });

  it("mints a token in HCP Terraform's shape for the run's own token, and records it in the audit trail without the token", async () => {
    const run = await runBy(runner.token);
    const before = Math.floor(Date.now() / 1000);
    const res = await mint(run, runner.token, { phase: 'apply', target: 'aws' });
    expectStatus(res, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const { token, audience, 'expires-at': expiresAt } = res.body.data.attributes;
    const { header, claims } = decodeToken(token, await jwks());
    assert.equal(header.alg, 'RS256');
    assert.equal(audience, 'aws.workload.identity');
    const project = (await t.get(`/api/v2/workspaces/${ws}`)).body.data.relationships.project.data.id;
    const projectName = (await t.get(`/api/v2/projects/${project}`)).body.data.attributes.name;
    const full = `organization:${org}:project:${projectName}:workspace:network`;
    assert.deepEqual(Object.keys(claims).sort(), [
      'aud',
      'exp',
      'iat',
      'iss',
      'jti',
      'nbf',
      'sub',
      'terraform_full_workspace',
      'terraform_organization_name',
      'terraform_project_name',
      'terraform_run_id',
      'terraform_run_phase',
      'terraform_workspace_id',
      'terraform_workspace_name',
    ]);
    assert.deepEqual(
      { ...claims, iat: undefined, nbf: undefined, exp: undefined, jti: undefined },
      {
        iss: ISSUER,
        aud: 'aws.workload.identity',
        sub: `${full}:run_phase:apply`,
        terraform_organization_name: org,
        terraform_project_name: projectName,
        terraform_workspace_name: 'network',
        terraform_workspace_id: ws,
        terraform_full_workspace: full,
        terraform_run_id: run,
        terraform_run_phase: 'apply',
        iat: undefined,
        nbf: undefined,
        exp: undefined,
        jti: undefined,
      },
    );
    assert.ok(claims.iat >= before && claims.nbf === claims.iat);
    assert.equal(claims.exp - claims.iat, TTL_MS / 1000);
    assert.equal(new Date(claims.exp * 1000).toISOString(), expiresAt);
    assert.equal(res.body.data.id, claims.jti);

    const trail = await t.get(`/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}`);
    const event = trail.body.data.find((e: any) => e.resource.action === 'workload-identity-token');
    assert.ok(event, 'the mint is in the audit trail');
    assert.deepEqual(
      { ...event.resource.meta, expires_at: undefined },
      {
        jti: claims.jti,
        kid: header.kid,
        audience: 'aws.workload.identity',
        phase: 'apply',
        target: 'aws',
        subject: claims.sub,
        expires_at: undefined,
      },
    );
    assert.ok(!JSON.stringify(trail.body).includes(token.split('.')[2]));
  });

  it('takes the audience from TFC_<TARGET>_WORKLOAD_IDENTITY_AUDIENCE, and refuses a target the variables do not turn on', async () => {
    const run = await runBy(runner.token);
    const vault = await mint(run, runner.token, { phase: 'plan', target: 'vault' });
    expectStatus(vault, 200);
    assert.equal(decodeToken(vault.body.data.attributes.token, await jwks()).claims.aud, 'vault.example.com');
    const azure = await mint(run, runner.token, { phase: 'plan', target: 'azure' });
    expectStatus(azure, 422);
    assert.match(azure.body.errors[0].detail, /TFC_AZURE_PROVIDER_AUTH=true/);
    for (const body of [{ phase: 'destroy', target: 'aws' }, { phase: 'plan', target: 'gcp' }, { phase: 'plan' }, {}])
      expectStatus(await mint(run, runner.token, body), 422);
  });

  it("mints Google Cloud and Azure tokens with HCP Terraform's default audiences and the same claims, and refuses Google Cloud without an audience", async () => {
    const other = await t.createWorkspace(org, { name: 'clouds' });
    await grantWorkspace(t, runner.teamId, other, { access: 'plan' });
    const provider = 'projects/123/locations/global/workloadIdentityPools/tfc/providers/varsetd';
    const bare = await t.createWorkspace(org, { name: 'no-provider' });
    await grantWorkspace(t, runner.teamId, bare, { access: 'plan' });
    await createVarset(t, org, {
      workspaces: [bare],
      vars: [{ key: 'TFC_GCP_PROVIDER_AUTH', category: 'env', value: 'true' }],
    });
    await createVarset(t, org, {
      workspaces: [other],
      vars: [
        { key: 'TFC_GCP_PROVIDER_AUTH', category: 'env', value: 'true' },
        { key: 'TFC_GCP_WORKLOAD_PROVIDER_NAME', category: 'env', value: provider },
        { key: 'TFC_AZURE_PROVIDER_AUTH', category: 'env', value: 'true' },
      ],
    });
    const newRun = async (workspace: string) => {
      const cv = await createUploadedConfigurationVersion(t, workspace);
      const body = {
        data: {
          type: 'runs',
          relationships: {
            workspace: { data: { type: 'workspaces', id: workspace } },
            'configuration-version': { data: { type: 'configuration-versions', id: cv } },
          },
        },
      };
      const res = await t.post('/api/v2/runs', body, { token: runner.token });
      expectStatus(res, 201);
      return res.body.data.id as string;
    };
    const run = await newRun(other);
    const claimsOf = async (target: string) => {
      const res = await mint(run, runner.token, { phase: 'apply', target });
      expectStatus(res, 200);
      return decodeToken(res.body.data.attributes.token, await jwks()).claims;
    };
    const [aws, gcp, azure] = [await claimsOf('aws'), await claimsOf('gcp'), await claimsOf('azure')];
    assert.equal(gcp.aud, `//iam.googleapis.com/${provider}`);
    assert.equal(azure.aud, 'api://AzureADTokenExchange');
    assert.match(gcp.sub, new RegExp(`^organization:${org}:project:[^:]+:workspace:clouds:run_phase:apply$`));
    const rest = ({ jti: _j, aud: _a, iat: _i, nbf: _n, exp: _e, ...others }: Record<string, unknown>) => others;
    assert.deepEqual(rest(gcp), rest(aws));
    assert.deepEqual(rest(azure), rest(aws));

    const refused = await mint(await newRun(bare), runner.token, { phase: 'plan', target: 'gcp' });
    expectStatus(refused, 422);
    assert.match(refused.body.errors[0].detail, /TFC_GCP_WORKLOAD_IDENTITY_AUDIENCE or TFC_GCP_WORKLOAD_PROVIDER_NAME/);
  });

  it("mints an alias's token with the alias's audience (its own, the shared default, or the cloud's), refusing an alias that is off", async () => {
    const aliased = await t.createWorkspace(org, { name: 'aliased' });
    await grantWorkspace(t, runner.teamId, aliased, { access: 'plan' });
    const env = (key: string, value: string) => ({ key, category: 'env', value });
    await createVarset(t, org, {
      workspaces: [aliased],
      vars: [
        env('TFC_AWS_PROVIDER_AUTH_STAGING', 'true'),
        env('TFC_AWS_WORKLOAD_IDENTITY_AUDIENCE_STAGING', 'staging.aws.example.com'),
        env('TFC_AWS_PROVIDER_AUTH_PROD', 'true'),
        env('TFC_AWS_PROVIDER_AUTH_OFF', 'false'),
        env('TFC_AWS_PROVIDER_AUTH_TYPE', 'true'),
        env('TFC_VAULT_PROVIDER_AUTH_SECRETS', 'true'),
        env('TFC_DEFAULT_VAULT_WORKLOAD_IDENTITY_AUDIENCE', 'shared.vault.example.com'),
        env('TFC_GCP_PROVIDER_AUTH_DATA', 'true'),
        env(
          'TFC_GCP_WORKLOAD_PROVIDER_NAME_DATA',
          'projects/9/locations/global/workloadIdentityPools/p/providers/data',
        ),
      ],
    });
    const cv = await createUploadedConfigurationVersion(t, aliased);
    const created = await t.post(
      '/api/v2/runs',
      {
        data: {
          type: 'runs',
          relationships: {
            workspace: { data: { type: 'workspaces', id: aliased } },
            'configuration-version': { data: { type: 'configuration-versions', id: cv } },
          },
        },
      },
      { token: runner.token },
    );
    expectStatus(created, 201);
    const run = created.body.data.id;
    const minted = async (target: string, alias: string) => {
      const res = await mint(run, runner.token, { phase: 'plan', target, alias });
      expectStatus(res, 200);
      return decodeToken(res.body.data.attributes.token, await jwks()).claims;
    };
    const subject = new RegExp(`^organization:${org}:project:[^:]+:workspace:aliased:run_phase:plan$`);
    for (const [target, alias, audience] of [
      ['aws', 'STAGING', 'staging.aws.example.com'],
      ['aws', 'PROD', 'aws.workload.identity'],
      ['vault', 'SECRETS', 'shared.vault.example.com'],
      ['gcp', 'DATA', '//iam.googleapis.com/projects/9/locations/global/workloadIdentityPools/p/providers/data'],
    ]) {
      const claims = await minted(target!, alias!);
      assert.equal(claims.aud, audience, `${target} ${alias}`);
      assert.match(claims.sub, subject);
    }
    const trail = await t.get(`/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}`);
    const event = trail.body.data.find(
      (e: any) => e.resource.action === 'workload-identity-token' && e.resource.meta.alias === 'STAGING',
    );
    assert.equal(event?.resource.meta.audience, 'staging.aws.example.com');

    for (const [body, detail] of [
      [{ target: 'azure' }, /TFC_AZURE_PROVIDER_AUTH=true/],
      [{ target: 'aws', alias: 'OFF' }, /for alias OFF \(TFC_AWS_PROVIDER_AUTH_OFF=true\)/],
      [{ target: 'azure', alias: 'STAGING' }, /TFC_AZURE_PROVIDER_AUTH_STAGING=true/],
      [{ target: 'aws', alias: 'TYPE' }, /for alias TYPE/],
    ] as const) {
      const refused = await mint(run, runner.token, { phase: 'plan', ...body });
      expectStatus(refused, 422);
      assert.match(refused.body.errors[0].detail, detail);
    }
    for (const alias of ['', 'not-a-tag', 'a b', 7])
      expectStatus(await mint(run, runner.token, { phase: 'plan', target: 'aws', alias }), 422);
  });

  it('gives a speculative plan no apply token', async () => {
    const run = await runBy(runner.token, true);
    expectStatus(await mint(run, runner.token, { phase: 'plan', target: 'aws' }), 200);
    const refused = await mint(run, runner.token, { phase: 'apply', target: 'aws' });
    expectStatus(refused, 422);
    assert.match(refused.body.errors[0].detail, /speculative plan/);
  });

  it('answers 404 to every other token, and 409 once the run has finished', async () => {
    const run = await runBy(runner.token);
    const other = await teamWithToken(t, org);
    await grantWorkspace(t, other.teamId, ws, { access: 'admin' });
    for (const token of [await teamToken(t, await ownersTeam(t, org)), other.token, await organizationToken(t, org)])
      expectStatus(await mint(run, token), 404);
    expectStatus(
      await t.post(`/api/v2/runs/${run}/actions/workload-identity-token`, { phase: 'plan', target: 'aws' }),
      404,
    );
    expectStatus(await t.post(`/api/v2/runs/${run}/actions/finish`, { 'exit-code': 0 }, { token: runner.token }), 200);
    const refused = await mint(run, runner.token);
    expectStatus(refused, 409);
  });

  it('publishes the next key before it signs, and keeps the previous one until its tokens have expired', async () => {
    const run = await runBy(runner.token);
    const first = decodeToken((await mint(run, runner.token)).body.data.attributes.token, await jwks()).header.kid;
    const next = await rotateSigningKey(t.store, t.app.sealer, 60_000, TTL_MS);
    const published = (await jwks()).keys.map((k: any) => k.kid);
    assert.ok(published.includes(first) && published.includes(next.id));
    assert.equal(
      decodeToken((await mint(run, runner.token)).body.data.attributes.token, await jwks()).header.kid,
      first,
      'the next key does not sign before its time',
    );
    const now = await rotateSigningKey(t.store, t.app.sealer, 0, TTL_MS);
    const { header, claims } = decodeToken((await mint(run, runner.token)).body.data.attributes.token, await jwks());
    assert.equal(header.kid, now.id);
    assert.ok(claims.exp - claims.iat <= TTL_MS / 1000);
    assert.deepEqual(
      (await jwks()).keys.map((k: any) => k.kid).sort(),
      [first, next.id, now.id].sort(),
      'keys that signed tokens still valid stay published',
    );
  });
});

describe(`workload identity: a first token after a rotation was published (${storeKind})`, () => {
  let t: TestApp;
  before(
    async () =>
      (t = await TestApp.start({ workloadIdentity: { issuer: ISSUER, tokenTtlMs: TTL_MS, runLifetimeMs: 3_600_000 } })),
  );
  after(async () => t.close());

  it('signs with a key of its own until the published next key takes over, then unpublishes it', async () => {
    const next = await rotateSigningKey(t.store, t.app.sealer, 60_000, TTL_MS);
    const org = await t.createOrganization();
    const ws = await t.createWorkspace(org);
    await createVarset(t, org, {
      attributes: { global: true },
      vars: [{ key: 'TFC_AWS_PROVIDER_AUTH', category: 'env', value: 'true' }],
    });
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
    const run = (await t.post('/api/v2/runs', body)).body.data.id;
    // The site administrator created the run, so it is the run's own token here.
    const minted = await t.post(`/api/v2/runs/${run}/actions/workload-identity-token`, {
      phase: 'plan',
      target: 'aws',
    });
    expectStatus(minted, 200);
    const keys = await listSigningKeys(t.store.db);
    const first = keys.find((k) => k.id !== next.id)!;
    assert.equal(
      decodeToken(minted.body.data.attributes.token, await (await t.getRaw('/.well-known/jwks')).json()).header.kid,
      first.id,
    );
    assert.equal(first.signsUntil, next.signsFrom);
    assert.equal(Date.parse(first.publishedUntil!) - Date.parse(next.signsFrom), TTL_MS);
  });
});

describe(`workload identity: a run's lifetime (${storeKind})`, () => {
  let t: TestApp;
  before(
    async () =>
      (t = await TestApp.start({ workloadIdentity: { issuer: ISSUER, tokenTtlMs: TTL_MS, runLifetimeMs: 3000 } })),
  );
  after(async () => t.close());

  it('bounds every token of a run by the run lifetime, and mints none once it has passed', async () => {
    const org = await t.createOrganization();
    const ws = await t.createWorkspace(org);
    await createVarset(t, org, {
      attributes: { global: true },
      vars: [{ key: 'TFC_AWS_PROVIDER_AUTH', category: 'env', value: 'true' }],
    });
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
    const created = (await t.post('/api/v2/runs', body)).body.data;
    const mint = () =>
      t.post(`/api/v2/runs/${created.id}/actions/workload-identity-token`, { phase: 'plan', target: 'aws' });
    const minted = await mint();
    expectStatus(minted, 200);
    const { claims } = decodeToken(
      minted.body.data.attributes.token,
      await (await t.getRaw('/.well-known/jwks')).json(),
    );
    assert.ok(claims.exp * 1000 <= Date.parse(created.attributes['created-at']) + 3000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const late = await mint();
    expectStatus(late, 409);
    assert.match(late.body.errors[0].detail, /outlived the time its tokens may be valid for/);
  });
});

describe(`workload identity off (${storeKind})`, () => {
  let t: TestApp;
  before(async () => (t = await TestApp.start()));
  after(async () => t.close());

  it('has no issuer documents and no token route', async () => {
    assert.equal((await t.getRaw('/.well-known/openid-configuration')).statusCode, 404);
    expectStatus(
      await t.post('/api/v2/runs/run-x/actions/workload-identity-token', { phase: 'plan', target: 'aws' }),
      404,
    );
  });
});
