import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runVarsetd, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createOrganization } from './support/factories/organizations.js';
import { createVar, createVarset } from './support/factories/varsets.js';
import {
  effectiveByWorkspace,
  sourceInFrontOf,
  startSourceAndTarget,
  type SourceAndTarget,
} from './support/import-sources.js';
import { SECRET, seedOrganization } from './support/set-fixture.js';
import { storeKind, type TestStore } from './support/store.js';

describe(`varsetd import from a varsetd server (${storeKind})`, () => {
  let pair: SourceAndTarget | undefined;
  let targetStore: TestStore;
  let source: ServerProcess;
  let target: ServerProcess;
  let s: Client;
  let t: Client;
  let dir: string;
  let tokenFile: string;
  let valuesFile: string;
  let throttle: { url: string; close(): void };
  let throttled = 0;
  const varsetd = (...args: string[]) => runVarsetd(args, varsetdEnv(targetStore));
  const importFrom = (url: string, ...rest: string[]) =>
    varsetd(
      'import',
      '--from',
      url,
      '--token-file',
      tokenFile,
      '--organization',
      'acme',
      '--page-size',
      '2',
      '--json',
      ...rest,
    );
  const reportOf = (run: { code: number; stdout: string; stderr: string }) => {
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(SECRET), 'no sensitive value in a report');
    return JSON.parse(run.stdout);
  };
  const results = (report: any) => report.sets.map((set: any) => [set.name, set.result]);
  const setEvents = async (id: string) =>
    (
      (await t.get('/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=acme&page%5Bsize%5D=100')).body
        .data as any[]
    ).filter((e) => e.resource.type === 'varset' && e.resource.id === id);

  before(async () => {
    pair = await startSourceAndTarget();
    ({ targetStore, source, target } = pair);
    s = httpClient(source.url);
    t = httpClient(target.url);
    const seeded = await seedOrganization(s, 'acme');
    // Workspace tags travel too (go-tfe's tag-names).
    expectStatus(
      await s.post(`/api/v2/workspaces/${seeded.web}/relationships/tags`, {
        data: [
          { type: 'tags', attributes: { name: 'frontend' } },
          { type: 'tags', attributes: { name: 'prod' } },
        ],
      }),
      204,
    );
    // More sets than a few pages of two hold.
    for (let i = 1; i <= 4; i++)
      await createVarset(s, 'acme', { attributes: { name: `extra-${i}` }, vars: [{ key: `k${i}`, value: `v${i}` }] });
    await createOrganization(t, 'acme');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-import-'));
    tokenFile = path.join(dir, 'token');
    fs.writeFileSync(tokenFile, `${ADMIN_TOKEN}\n`);
    valuesFile = path.join(dir, 'values.env');
    fs.writeFileSync(valuesFile, `# filled by hand\nshared/AWS_SECRET_ACCESS_KEY=${SECRET}\n`);
    // The source as a rate-limited API: every fifth request is answered 429 once, with Retry-After.
    throttle = await sourceInFrontOf(source.url, (_req, res) => {
      if (++throttled % 5 !== 0) return false;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/vnd.api+json' });
      res.end('{"errors":[{"status":"429","title":"Too many requests"}]}');
      return true;
    });
  });
  after(async () => {
    throttle.close();
    try {
      await pair?.stop();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a dry run reports what it would do and writes nothing', async () => {
    const report = reportOf(await importFrom(source.url, '--dry-run'));
    assert.equal(report['dry-run'], true);
    assert.deepEqual(
      report.projects.map((p: any) => p.result).sort(),
      ['created', 'created', 'unchanged'],
      'the default project exists',
    );
    assert.equal(
      results(report).every(([, result]: string[]) => result === 'created'),
      true,
    );
    const listed = await t.get('/api/v2/organizations/acme/varsets');
    assert.equal(listed.body.data.length, 0);
    assert.equal((await t.get('/api/v2/organizations/acme/workspaces')).body.data.length, 0);
  });

  it('imports the organization through pages and 429s: the same effective variables, one version per set', async () => {
    const before429 = throttled;
    const report = reportOf(await importFrom(throttle.url, '--values', valuesFile));
    assert.ok(throttled - before429 >= 10, 'the import read through the throttled source');
    assert.deepEqual(
      results(report).map(([, r]: string[]) => r),
      Array(7).fill('created'),
    );
    const shared = report.sets.find((set: any) => set.name === 'shared');
    assert.deepEqual(
      shared.variables.find((v: any) => v.key === 'AWS_SECRET_ACCESS_KEY'),
      { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', result: 'created' },
    );
    assert.deepEqual(report['workspace-variables'], [
      { workspace: 'db', key: 'size', category: 'terraform', result: 'created' },
    ]);
    assert.deepEqual(await effectiveByWorkspace(t, 'acme'), await effectiveByWorkspace(s, 'acme'));
    assert.deepEqual(report['workspace-tags'], [
      { workspace: 'web', tag: 'frontend', result: 'created' },
      { workspace: 'web', tag: 'prod', result: 'created' },
    ]);
    const tagsOf = async (c: Client) =>
      (
        (await c.get('/api/v2/organizations/acme/workspaces?page%5Bsize%5D=100')).body.data as {
          attributes: { name: string; 'tag-names': string[] };
        }[]
      )
        .map((w) => [w.attributes.name, w.attributes['tag-names']])
        .sort();
    assert.deepEqual(await tagsOf(t), await tagsOf(s));

    const sets = (await t.get('/api/v2/organizations/acme/varsets?page%5Bsize%5D=100')).body.data as {
      id: string;
      attributes: { name: string };
    }[];
    for (const set of sets) {
      const versions = await t.get(`/api/v2/varsets/${set.id}/versions`);
      expectStatus(versions, 200);
      assert.equal(versions.body.data.length, 1, `${set.attributes.name} has one version`);
      const [version] = versions.body.data;
      assert.match(version.attributes.cause, /^import from http:\/\/127\.0\.0\.1:\d+$/, 'the version says why');
      const shown = await t.get(`/api/v2/varset-versions/${version.id}`);
      assert.equal(shown.body.data.attributes.cause, version.attributes.cause);
    }
    const trail = await t.get(
      '/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=acme&page%5Bsize%5D=100',
    );
    // Every write of the import says why: the projects, workspaces and workspace variables it created too.
    const written = (trail.body.data as any[]).filter((e) => e.auth.type === 'CommandLine');
    assert.deepEqual([...new Set(written.map((e) => `${e.resource.type} ${e.resource.action}`))].sort(), [
      'project create',
      'var create',
      'varset create',
      'workspace add_tags',
      'workspace create',
    ]);
    for (const event of written)
      assert.match(event.resource.meta.cause, /^import from http:\/\/127\.0\.0\.1:\d+$/, JSON.stringify(event));
    const created = (trail.body.data as any[]).filter(
      (e) => e.resource.type === 'varset' && e.resource.action === 'create',
    );
    assert.equal(created.length, 7);
    for (const event of created) {
      assert.match(
        event.auth.description,
        /^command line \(user [^)]+\)$/,
        'the subject is the command line, the reason is not in it',
      );
      assert.match(event.resource.meta.cause, /^import from http:\/\/127\.0\.0\.1:\d+$/);
    }

    // The value --values gave is the one a run gets.
    const workdir = fs.mkdtempSync(path.join(dir, 'run-'));
    fs.writeFileSync(path.join(workdir, 'main.tf'), '');
    const check = `process.exit(process.env.AWS_SECRET_ACCESS_KEY === ${JSON.stringify(SECRET)} ? 0 : 3)`;
    const ran = await runVarsetd(
      ['exec', '--workspace', 'acme/web', '--dir', workdir, '--', process.execPath, '-e', check],
      {
        ...process.env,
        VARSETD_ADDRESS: target.url,
        VARSETD_TOKEN: ADMIN_TOKEN,
      },
    );
    assert.equal(ran.code, 0, ran.stderr);
  });

  it('a second import changes nothing; after a change of the source, only what changed', async () => {
    const again = reportOf(await importFrom(source.url, '--values', valuesFile));
    assert.deepEqual(new Set(results(again).map(([, r]: string[]) => r)), new Set(['unchanged']));
    assert.deepEqual(
      new Set(
        again.projects
          .concat(again.workspaces, again['workspace-variables'], again['workspace-tags'])
          .map((i: any) => i.result),
      ),
      new Set(['unchanged']),
    );

    const extra = (await s.get('/api/v2/organizations/acme/varsets?q=extra-2')).body.data[0];
    const variable = (await s.get(`/api/v2/varsets/${extra.id}/relationships/vars`)).body.data[0];
    expectStatus(
      await s.patch(`/api/v2/varsets/${extra.id}/relationships/vars/${variable.id}`, {
        data: { type: 'vars', attributes: { value: 'changed' } },
      }),
      200,
    );
    expectStatus(
      await s.patch(`/api/v2/varsets/${extra.id}`, {
        data: { type: 'varsets', attributes: { description: 'now described' } },
      }),
      200,
    );
    const changed = reportOf(await importFrom(source.url, '--values', valuesFile));
    assert.deepEqual(
      results(changed).filter(([, r]: string[]) => r !== 'unchanged'),
      [['extra-2', 'updated']],
    );
    assert.deepEqual(changed.sets.find((set: any) => set.name === 'extra-2').variables, [
      { key: 'k2', category: 'terraform', result: 'updated' },
    ]);
    assert.deepEqual(await effectiveByWorkspace(t, 'acme'), await effectiveByWorkspace(s, 'acme'));
  });

  it('a changed set gets one version and one event naming the import, whatever changed in it', async () => {
    const sourceSet = (await s.get('/api/v2/organizations/acme/varsets?q=extra-3')).body.data[0];
    const [k3] = (await s.get(`/api/v2/varsets/${sourceSet.id}/relationships/vars`)).body.data;
    await createVar(s, sourceSet.id, { key: 'gone', value: 'soon' });
    await createVar(s, sourceSet.id, { key: 'kept', value: 'before' });
    reportOf(await importFrom(source.url, '--values', valuesFile));
    const set = (await t.get('/api/v2/organizations/acme/varsets?q=extra-3')).body.data[0];
    const versionsBefore: number = (await t.get(`/api/v2/varsets/${set.id}/versions`)).body.data.length;
    const eventsBefore = await setEvents(set.id);

    const kept = (await s.get(`/api/v2/varsets/${sourceSet.id}/relationships/vars`)).body.data.find(
      (v: any) => v.attributes.key === 'kept',
    );
    const gone = (await s.get(`/api/v2/varsets/${sourceSet.id}/relationships/vars`)).body.data.find(
      (v: any) => v.attributes.key === 'gone',
    );
    expectStatus(
      await s.patch(`/api/v2/varsets/${sourceSet.id}`, {
        data: { type: 'varsets', attributes: { description: 'changed at once', priority: true } },
      }),
      200,
    );
    expectStatus(
      await s.patch(`/api/v2/varsets/${sourceSet.id}/relationships/vars/${kept.id}`, {
        data: { type: 'vars', attributes: { value: 'after' } },
      }),
      200,
    );
    expectStatus(await s.delete(`/api/v2/varsets/${sourceSet.id}/relationships/vars/${gone.id}`), 204);
    await createVar(s, sourceSet.id, { key: 'added', value: 'new' });
    const ws = (await s.get('/api/v2/organizations/acme/workspaces?page%5Bsize%5D=100')).body.data[0];
    expectStatus(
      await s.post(`/api/v2/varsets/${sourceSet.id}/relationships/workspaces`, {
        data: [{ type: 'workspaces', id: ws.id }],
      }),
      204,
    );

    const report = reportOf(await importFrom(source.url, '--values', valuesFile));
    const item = report.sets.find((x: any) => x.name === 'extra-3');
    assert.equal(item.result, 'updated');
    assert.deepEqual(
      item.variables.map((v: any) => [v.key, v.result]).sort(),
      [
        ['added', 'created'],
        ['gone', 'removed'],
        [k3.attributes.key, 'unchanged'],
        ['kept', 'updated'],
      ].sort(),
    );
    assert.deepEqual(
      item.assignments.filter((a: any) => a.result !== 'unchanged').map((a: any) => [a.kind, a.name, a.result]),
      [['workspace', ws.attributes.name, 'created']],
    );
    assert.equal(
      (await t.get(`/api/v2/varsets/${set.id}/versions`)).body.data.length,
      versionsBefore + 1,
      'one new version',
    );
    const known = new Set(eventsBefore.map((e: any) => e.id));
    const made = (await setEvents(set.id)).filter((e) => !known.has(e.id));
    assert.equal(made.length, 1, 'one new audit event');
    assert.equal(made[0].resource.action, 'update');
    assert.match(made[0].resource.meta.cause, /^import from http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(await effectiveByWorkspace(t, 'acme'), await effectiveByWorkspace(s, 'acme'));
  });

  it('a set refused in part is left as it was: nothing of it is written', async () => {
    const sourceSet = (await s.get('/api/v2/organizations/acme/varsets?q=extra-4')).body.data[0];
    const set = (await t.get('/api/v2/organizations/acme/varsets?q=extra-4')).body.data[0];
    const [k4] = (await s.get(`/api/v2/varsets/${sourceSet.id}/relationships/vars`)).body.data;
    // A global set of the target alone holds the key the source's set will hold once global.
    const targetOnly = await createVarset(t, 'acme', {
      attributes: { name: 'target only', global: true },
      vars: [{ key: 'clash', value: 'x' }],
    });
    expectStatus(
      await s.patch(`/api/v2/varsets/${sourceSet.id}`, {
        data: { type: 'varsets', attributes: { description: 'refused', global: true } },
      }),
      200,
    );
    expectStatus(
      await s.patch(`/api/v2/varsets/${sourceSet.id}/relationships/vars/${k4.id}`, {
        data: { type: 'vars', attributes: { value: 'refused too' } },
      }),
      200,
    );
    await createVar(s, sourceSet.id, { key: 'clash', value: 'y' });
    const shown = async () => {
      const one = (await t.get(`/api/v2/varsets/${set.id}`)).body.data;
      const vars = (await t.get(`/api/v2/varsets/${set.id}/relationships/vars`)).body.data.map((v: any) => [
        v.attributes.key,
        v.attributes.value,
      ]);
      return { attributes: one.attributes, relationships: one.relationships, vars };
    };
    const before = await shown();
    const versionsBefore = (await t.get(`/api/v2/varsets/${set.id}/versions`)).body.data.length;
    const eventsBefore = (await setEvents(set.id)).length;

    const report = reportOf(await importFrom(source.url, '--values', valuesFile));
    const item = report.sets.find((x: any) => x.name === 'extra-4');
    assert.equal(item.result, 'skipped');
    assert.match(item.why, /conflicts with the global variable set/);
    assert.deepEqual(await shown(), before, 'the set is as it was');
    assert.equal((await t.get(`/api/v2/varsets/${set.id}/versions`)).body.data.length, versionsBefore);
    assert.equal((await setEvents(set.id)).length, eventsBefore);
    expectStatus(await t.delete(`/api/v2/varsets/${targetOnly.id}`), 204);
  });

  it('round-trips through export into an empty organization; a sensitive value left out needs one', async () => {
    const out = path.join(dir, 'export');
    assert.equal((await varsetd('export', '--organization', 'acme', '--out', out)).code, 0);
    await createOrganization(t, 'copy');
    const report = reportOf(
      await varsetd('import', '--from', out, '--organization', 'acme', '--into', 'copy', '--json'),
    );
    const secret = report.sets
      .find((set: any) => set.name === 'shared')
      .variables.find((v: any) => v.key === 'AWS_SECRET_ACCESS_KEY');
    assert.deepEqual(secret, {
      key: 'AWS_SECRET_ACCESS_KEY',
      category: 'env',
      result: 'created',
      'value-needed': true,
    });
    const copied = path.join(dir, 'copied');
    assert.equal((await varsetd('export', '--organization', 'copy', '--out', copied)).code, 0);
    for (const file of fs.readdirSync(out))
      assert.equal(
        fs.readFileSync(path.join(copied, file), 'utf8'),
        fs.readFileSync(path.join(out, file), 'utf8'),
        file,
      );

    const human = await varsetd('import', '--from', out, '--organization', 'acme', '--into', 'copy');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^sets: 7 unchanged$/m);
    assert.match(human.stdout, /^ {4}variable env AWS_SECRET_ACCESS_KEY: unchanged \(needs a value\)$/m);
  });

  it('with --no-create, reports and skips what needs a missing workspace or project', async () => {
    await createOrganization(t, 'bare');
    const report = reportOf(await importFrom(source.url, '--into', 'bare', '--no-create', '--dry-run'));
    assert.equal(
      report.workspaces.every((w: any) => w.result === 'skipped'),
      true,
    );
    const infra = report.sets.find((set: any) => set.name === 'infra overrides');
    assert.deepEqual(
      [infra.result, infra.why],
      ['skipped', 'its project infra is not in the target organization (--no-create)'],
    );
    const tuning = report.sets.find((set: any) => set.name === 'apps/web: "tuning"');
    assert.equal(tuning.result, 'created');
    assert.deepEqual(new Set(tuning.assignments.map((a: any) => a.result)), new Set(['skipped']));
  });

  it('stops at a source error with nothing written', async () => {
    const failing = await sourceInFrontOf(source.url, (req, res) => {
      if (!req.url!.includes('/relationships/vars')) return false;
      res.writeHead(500).end();
      return true;
    });
    try {
      await createOrganization(t, 'untouched');
      const run = await importFrom(failing.url, '--into', 'untouched');
      assert.equal(run.code, 1);
      assert.match(
        run.stderr,
        /^varsetd import: reading http:\/\/127\.0\.0\.1:\d+: the source answered 500 to GET \/varsets\/varset-\w+\/relationships\/vars\n$/,
      );
      assert.equal((await t.get('/api/v2/organizations/untouched/workspaces')).body.data.length, 0);
    } finally {
      failing.close();
    }
  });
});
