import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createOrganization } from './support/factories/organizations.js';
import { organizationToken, teamWithToken } from './support/factories/access.js';
import { SECRET, seedOrganization } from './support/set-fixture.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'varset-imports', attributes } });

describe(`import and export through the API (${storeKind})`, () => {
  let sourceStore: TestStore;
  let targetStore: TestStore;
  let source: ServerProcess;
  let target: ServerProcess;
  let s: Client;
  let t: Client;
  let trap: http.Server;
  let trapped = 0;
  let trapUrl: string;
  let redirector: http.Server;
  let redirectorUrl: string;
  let limiter: http.Server;
  let limiterUrl: string;
  let limited = 0;
  let sourceToken: string;

  before(async () => {
    trap = http.createServer((_req, res) => {
      trapped++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
    // An allowed source that sends every request on to the trap, which is not allowed.
    redirector = http.createServer((req, res) => {
      res.writeHead(302, { location: `${trapUrl}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    // An allowed source whose rate limit asks for half a minute's wait.
    limiter = http.createServer((_req, res) => {
      limited++;
      res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/vnd.api+json' });
      res.end('{"errors":[{"status":"429","title":"too many requests"}]}');
    });
    await new Promise<void>((resolve) => limiter.listen(0, '127.0.0.1', resolve));
    limiterUrl = `http://127.0.0.1:${(limiter.address() as AddressInfo).port}`;
    [sourceStore, targetStore] = await Promise.all([createTestStore(), createTestStore()]);
    source = await startServerProcess(varsetdEnv(sourceStore, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }));
    target = await startServerProcess(
      varsetdEnv(targetStore, {
        VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
        VARSETD_IMPORT_SOURCES: `app.terraform.io, ${source.url}, ${redirectorUrl}, ${limiterUrl}`,
        LOG_LEVEL: 'debug',
      }),
    );
    s = httpClient(source.url);
    t = httpClient(target.url);
    await seedOrganization(s, 'acme');
    sourceToken = await organizationToken(s, 'acme');
    await seedOrganization(t, 'acme');
    for (const org of ['beta', 'gamma', 'delta']) await createOrganization(t, org);
  });
  after(async () => {
    trap.close();
    redirector.close();
    limiter.close();
    try {
      await Promise.all([source.stop(), target.stop()]);
    } finally {
      await Promise.all([sourceStore.dispose(), targetStore.dispose()]);
    }
  });

  const exportOf = async (organization: string) => {
    const res = await t.get(`/api/v2/organizations/${organization}/varset-export`);
    expectStatus(res, 200);
    return res.body as unknown[];
  };
  const setNames = async (organization: string) => {
    const res = await t.get(`/api/v2/organizations/${organization}/varsets?page%5Bsize%5D=100`);
    expectStatus(res, 200);
    return (res.body.data as { attributes: { name: string } }[]).map((d) => d.attributes.name).sort();
  };
  const counts = (items: { result: string }[]) => {
    const by: Record<string, number> = {};
    for (const item of items) by[item.result] = (by[item.result] ?? 0) + 1;
    return by;
  };

  it("downloads the export as attachments whose content is the command's, and never a sensitive value", async () => {
    const env = varsetdEnv(targetStore);
    for (const [format, args, type] of [
      ['json', [], /^application\/json/],
      ['tf', ['--format', 'tf'], /^text\/plain/],
    ] as const) {
      const res = await fetch(`${target.url}/api/v2/organizations/acme/varset-export?format=${format}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type')!, type);
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="acme-varsets.${format}"`);
      const text = await res.text();
      const command = await runVarsetd(['export', '--organization', 'acme', ...args], env);
      assert.equal(command.code, 0, command.stderr);
      assert.equal(text, command.stdout);
      assert.ok(!text.includes(SECRET));
    }
  });

  it('refuses the export to a token that may not read all of the sets (403), and an unknown format (400)', async () => {
    const { token } = await teamWithToken(t, 'acme', { 'organization-access': { 'read-projects': true } });
    const res = await t.get('/api/v2/organizations/acme/varset-export', { token });
    expectStatus(res, 403);
    expectStatus(await t.get('/api/v2/organizations/acme/varset-export?format=yaml'), 400);
    expectStatus(await t.get('/api/v2/organizations/nowhere/varset-export'), 404);
  });

  it('dry-runs an uploaded export, writing nothing; imports it; a second dry run finds it all unchanged', async () => {
    const documents = await exportOf('acme');
    const dry = await t.post(
      '/api/v2/organizations/beta/varset-imports',
      body({ documents, 'dry-run': true, 'file-name': 'acme.json' }),
    );
    expectStatus(dry, 200);
    const report = dry.body.data.attributes;
    assert.equal(report.source, 'uploaded export acme.json');
    assert.equal(report['dry-run'], true);
    assert.deepEqual(counts(report.sets), { created: 3 });
    // infra (its default project is there already; apps has no set of its own or assigned)
    assert.deepEqual(counts(report.projects), { created: 1 });
    assert.deepEqual(await setNames('beta'), []);
    const workspaces = await t.get('/api/v2/organizations/beta/workspaces');
    assert.equal(workspaces.body.data.length, 0);

    // The same report as the command prints with --json, for the same source.
    const file = `${targetStore.dataDir}/acme.json`;
    (await import('node:fs')).writeFileSync(file, JSON.stringify(documents));
    const command = await runVarsetd(
      ['import', '--from', file, '--organization', 'acme', '--into', 'beta', '--dry-run', '--json'],
      varsetdEnv(targetStore),
    );
    assert.equal(command.code, 0, command.stderr);
    assert.deepEqual({ ...JSON.parse(command.stdout), source: report.source }, report);

    const applied = await t.post('/api/v2/organizations/beta/varset-imports', body({ documents }));
    expectStatus(applied, 200);
    assert.equal(applied.body.data.attributes['dry-run'], false);
    assert.deepEqual(await setNames('beta'), await setNames('acme'));
    const again = await t.post('/api/v2/organizations/beta/varset-imports', body({ documents, 'dry-run': true }));
    expectStatus(again, 200);
    assert.deepEqual(counts(again.body.data.attributes.sets), { unchanged: 3 });
    assert.deepEqual(await exportOf('beta'), documents);

    const trail = await t.get('/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=beta');
    expectStatus(trail, 200);
    assert.match(JSON.stringify(trail.body), /import from uploaded export/);
  });

  it("refuses an import to anyone but the organization's owners (403), writing nothing", async () => {
    const documents = await exportOf('acme');
    const { token } = await teamWithToken(t, 'delta', {
      'organization-access': { 'manage-projects': true, 'manage-workspaces': true },
    });
    const res = await t.post('/api/v2/organizations/delta/varset-imports', body({ documents }), { token });
    expectStatus(res, 403);
    assert.deepEqual(await setNames('delta'), []);
  });

  it('answers bad uploads with a 4xx that changes nothing', async () => {
    const documents = await exportOf('acme');
    const bad: [unknown, number][] = [
      ['{not json', 400],
      [body({ documents: [{ name: 'x' }] }), 422],
      [body({ documents: [{ ...(documents[0] as object), variables: 'none' }] }), 422],
      [body({ documents: [documents[0], documents[0]] }), 422],
      [body({}), 422],
      [body({ documents, source: { url: source.url, token: 'x', organization: 'acme' } }), 422],
      [{ data: { type: 'varsets', attributes: { documents } } }, 422],
    ];
    for (const [sent, status] of bad) {
      const res = await t.post('/api/v2/organizations/delta/varset-imports', sent);
      expectStatus(res, status);
      assert.ok(Array.isArray(res.body.errors), JSON.stringify(res.body));
    }
    assert.deepEqual(await setNames('delta'), []);
    assert.equal((await t.get('/api/v2/organizations/delta/projects')).body.data.length, 1);
  });

  it("answers at once, with a 422 that writes nothing, when a source's rate limit would hold the request too long", async () => {
    const started = Date.now();
    const res = await t.post(
      '/api/v2/organizations/delta/varset-imports',
      body({ source: { url: limiterUrl, token: sourceToken, organization: 'acme' } }),
    );
    expectStatus(res, 422);
    assert.match(res.body.errors[0].detail, /limits the rate of requests \(it asks to wait 30 s more\)/);
    assert.ok(Date.now() - started < 5_000, `the request waited ${Date.now() - started} ms`);
    assert.equal(limited, 1);
    assert.deepEqual(await setNames('delta'), []);
  });

  it('reads a named source only at an allowed origin, and keeps its token out of every answer and log line', async () => {
    const refused = await t.post(
      '/api/v2/organizations/gamma/varset-imports',
      body({ source: { url: trapUrl, token: sourceToken, organization: 'acme' }, 'dry-run': true }),
    );
    expectStatus(refused, 422);
    assert.equal(refused.body.errors[0].source.pointer, '/data/attributes/source/url');
    assert.match(refused.body.errors[0].detail, /not an allowed source/);
    assert.equal(trapped, 0);
    for (const url of ['file:///etc/passwd', 'not a url', source.url.replace('://', '://user:pw@')]) {
      const res = await t.post(
        '/api/v2/organizations/gamma/varset-imports',
        body({ source: { url, token: sourceToken, organization: 'acme' } }),
      );
      expectStatus(res, 422);
    }

    const redirected = await t.post(
      '/api/v2/organizations/gamma/varset-imports',
      body({ source: { url: redirectorUrl, token: sourceToken, organization: 'acme' }, 'dry-run': true }),
    );
    expectStatus(redirected, 422);
    assert.match(redirected.body.errors[0].detail, /answered 302/);
    assert.equal(trapped, 0, 'a redirect of an allowed source was followed');

    const wrong = await t.post(
      '/api/v2/organizations/gamma/varset-imports',
      body({ source: { url: source.url, token: `${sourceToken}-wrong`, organization: 'acme' }, 'dry-run': true }),
    );
    expectStatus(wrong, 422);
    assert.match(wrong.body.errors[0].detail, /answered 401/);

    const dry = await t.post(
      '/api/v2/organizations/gamma/varset-imports',
      body({ source: { url: source.url, token: sourceToken, organization: 'acme' }, 'dry-run': true }),
    );
    expectStatus(dry, 200);
    assert.equal(dry.body.data.attributes.source, source.url);
    assert.deepEqual(counts(dry.body.data.attributes.sets), { created: 3 });
    assert.deepEqual(await setNames('gamma'), []);
    const applied = await t.post(
      '/api/v2/organizations/gamma/varset-imports',
      body({ source: { url: source.url, token: sourceToken, organization: 'acme' } }),
    );
    expectStatus(applied, 200);
    assert.deepEqual(await setNames('gamma'), await setNames('acme'));
    assert.deepEqual(counts(applied.body.data.attributes['workspace-variables']), { created: 1 });

    for (const text of [JSON.stringify(dry.body), JSON.stringify(applied.body), JSON.stringify(wrong.body)])
      assert.ok(!text.includes(sourceToken));
    const trail = await t.get('/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=gamma');
    assert.ok(!JSON.stringify(trail.body).includes(sourceToken));
    assert.match(JSON.stringify(trail.body), new RegExp(`import from ${source.url}`));
    const logs = target.output();
    assert.match(logs, /varset-imports/);
    assert.ok(!logs.includes(sourceToken), 'the source token is in a log line');
    assert.ok(!logs.includes(SECRET), 'a sensitive value is in a log line');
  });
});
