import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../src/auth/context.js';
import { commandLineSubject } from '../src/auth/subject.js';
import { takenBack } from '../src/db/transaction.js';
import { replaceVarset, updateVarset } from '../src/varsets/service.js';
import { TestApp } from './support/app.js';
import { organizationId } from './support/factories/audit.js';
import { createVar, createVarset, identifiers, listVersions, varResource } from './support/factories/varsets.js';
import { expectStatus, type ApiResponse } from './support/requests.js';
import { storeKind } from './support/store.js';

/** What a write of a set must leave: its one version's action, and its one audit event. */
interface Expected {
  version: string;
  event: { type: string; id: string; action: string };
}

/** A write of a set, sent once its scene is ready: the set it writes, and what it must leave. */
interface SetWriteCase {
  setId: string;
  send: () => Promise<ApiResponse>;
  expected: (res: ApiResponse) => Expected;
}

interface Scene {
  t: TestApp;
  org: string;
  ws: string;
  prj: string;
}

const setEvent = (id: string, action: string) => ({ type: 'varset', id, action });

/**
 * Every write a set can undergo, each through the API; the command line's replacing of a set
 * whole (import) is checked below. A workspace's or project's deletion also changes the sets
 * assigned to it: that is the deletion's write, recorded in its own event.
 */
const WRITES: Record<string, (scene: Scene) => Promise<SetWriteCase>> = {
  'creating a set, with variables and assignments': async ({ t, org, ws, prj }) => ({
    setId: '',
    send: () =>
      t.post(`/api/v2/organizations/${org}/varsets`, {
        data: {
          type: 'varsets',
          attributes: { name: `created-${randomUUID()}` },
          relationships: {
            vars: { data: [varResource({ key: 'k', value: 'v' })] },
            workspaces: identifiers('workspaces', [ws]),
            projects: identifiers('projects', [prj]),
          },
        },
      }),
    expected: (res) => ({ version: 'create', event: setEvent(res.body.data.id, 'create') }),
  }),
  "updating a set's attributes": async ({ t, org }) => {
    const set = await createVarset(t, org);
    return {
      setId: set.id,
      send: () =>
        t.patch(`/api/v2/varsets/${set.id}`, {
          data: { type: 'varsets', attributes: { description: 'changed', priority: true } },
        }),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'update') }),
    };
  },
  'updating a set with new variables and replaced assignments': async ({ t, org, ws, prj }) => {
    const set = await createVarset(t, org, { workspaces: [ws] });
    return {
      setId: set.id,
      send: () =>
        t.patch(`/api/v2/varsets/${set.id}`, {
          data: {
            type: 'varsets',
            attributes: { name: `renamed-${randomUUID()}` },
            relationships: {
              vars: { data: [varResource({ key: 'added', value: 'v' })] },
              workspaces: identifiers('workspaces', []),
              projects: identifiers('projects', [prj]),
            },
          },
        }),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'update') }),
    };
  },
  'deleting a set': async ({ t, org }) => {
    const set = await createVarset(t, org, { vars: [{ key: 'k', value: 'v' }] });
    return {
      setId: set.id,
      send: () => t.delete(`/api/v2/varsets/${set.id}`),
      expected: () => ({ version: 'delete', event: setEvent(set.id, 'destroy') }),
    };
  },
  'adding a variable': async ({ t, org }) => {
    const set = await createVarset(t, org);
    return {
      setId: set.id,
      send: () =>
        t.post(`/api/v2/varsets/${set.id}/relationships/vars`, { data: varResource({ key: 'added', value: 'v' }) }),
      expected: (res) => ({ version: 'update', event: { type: 'var', id: res.body.data.id, action: 'create' } }),
    };
  },
  'changing a variable': async ({ t, org }) => {
    const set = await createVarset(t, org);
    const variable = await createVar(t, set.id, { key: 'k', value: 'before' });
    return {
      setId: set.id,
      send: () =>
        t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${variable.id}`, {
          data: { type: 'vars', attributes: { value: 'after' } },
        }),
      expected: () => ({ version: 'update', event: { type: 'var', id: variable.id, action: 'update' } }),
    };
  },
  'deleting a variable': async ({ t, org }) => {
    const set = await createVarset(t, org);
    const variable = await createVar(t, set.id, { key: 'k', value: 'v', sensitive: true });
    return {
      setId: set.id,
      send: () => t.delete(`/api/v2/varsets/${set.id}/relationships/vars/${variable.id}`),
      expected: () => ({ version: 'update', event: { type: 'var', id: variable.id, action: 'destroy' } }),
    };
  },
  'applying a set to workspaces': async ({ t, org, ws }) => {
    const set = await createVarset(t, org);
    return {
      setId: set.id,
      send: () => t.post(`/api/v2/varsets/${set.id}/relationships/workspaces`, identifiers('workspaces', [ws])),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'apply') }),
    };
  },
  'removing a set from workspaces': async ({ t, org, ws }) => {
    const set = await createVarset(t, org, { workspaces: [ws] });
    return {
      setId: set.id,
      send: () => t.delete(`/api/v2/varsets/${set.id}/relationships/workspaces`, identifiers('workspaces', [ws])),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'remove') }),
    };
  },
  'applying a set to projects': async ({ t, org, prj }) => {
    const set = await createVarset(t, org);
    return {
      setId: set.id,
      send: () => t.post(`/api/v2/varsets/${set.id}/relationships/projects`, identifiers('projects', [prj])),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'apply') }),
    };
  },
  'removing a set from projects': async ({ t, org, prj }) => {
    const set = await createVarset(t, org, { projects: [prj] });
    return {
      setId: set.id,
      send: () => t.delete(`/api/v2/varsets/${set.id}/relationships/projects`, identifiers('projects', [prj])),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'remove') }),
    };
  },
  'writing several variables at once': async ({ t, org }) => {
    const set = await createVarset(t, org, {
      vars: [
        { key: 'gone', value: 'g' },
        { key: 'kept', value: 'k' },
      ],
    });
    const [gone, kept] = set.relationships.vars.data.map((v: any) => v.id);
    return {
      setId: set.id,
      send: () =>
        t.post(`/api/v2/varsets/${set.id}/actions/write-variables`, {
          data: [
            { type: 'vars', id: gone, meta: { action: 'delete' } },
            { type: 'vars', id: kept, attributes: { value: 'changed' } },
            { type: 'vars', attributes: { key: 'new', value: 'n', category: 'env' } },
          ],
        }),
      expected: () => ({ version: 'update', event: setEvent(set.id, 'update') }),
    };
  },
  'rolling a set back': async ({ t, org }) => {
    const set = await createVarset(t, org, { attributes: { description: 'first' } });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'second' } } }),
      200,
    );
    const [, first] = await listVersions(t, set.id);
    return {
      setId: set.id,
      send: () =>
        t.post(`/api/v2/varsets/${set.id}/actions/rollback`, { data: { type: 'varset-versions', id: first.id } }),
      expected: () => ({ version: 'rollback', event: setEvent(set.id, 'rollback') }),
    };
  },
  'restoring a deleted set': async ({ t, org, ws }) => {
    const set = await createVarset(t, org, { workspaces: [ws], vars: [{ key: 'k', value: 'v' }] });
    expectStatus(await t.delete(`/api/v2/varsets/${set.id}`), 204);
    const [, created] = await listVersions(t, set.id);
    return {
      setId: set.id,
      send: () =>
        t.post(`/api/v2/varsets/${set.id}/actions/rollback`, { data: { type: 'varset-versions', id: created.id } }),
      expected: () => ({ version: 'rollback', event: setEvent(set.id, 'rollback') }),
    };
  },
};

describe(`every write of a set records one version and one audit event (${storeKind})`, () => {
  let t: TestApp;
  let scene: Scene;
  let orgId: string;
  before(async () => {
    t = await TestApp.start();
    const org = await t.createOrganization();
    scene = { t, org, ws: await t.createWorkspace(org), prj: await t.createProject(org) };
    orgId = await organizationId(t, org);
  });
  after(async () => t.close());

  const versionCount = async (setId: string) =>
    Number(
      (
        await t.store.db
          .selectFrom('varset_versions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('varset_id', '=', setId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const events = () =>
    t.store.db
      .selectFrom('audit_events')
      .select(['id', 'resource_type', 'resource_id', 'action'])
      .where('organization_id', '=', orgId)
      .execute();

  for (const [name, prepare] of Object.entries(WRITES)) {
    it(name, async () => {
      const write = await prepare(scene);
      const versionsBefore = write.setId ? await versionCount(write.setId) : 0;
      const known = new Set((await events()).map((e) => e.id));
      const res = await write.send();
      assert.ok(res.status < 300, `the write failed: ${res.status} ${JSON.stringify(res.body)}`);
      const expected = write.expected(res);
      const setId = write.setId || expected.event.id;
      assert.equal(await versionCount(setId), versionsBefore + 1, 'one version');
      const [newest] = await t.store.db
        .selectFrom('varset_versions')
        .select(['action', 'request_id'])
        .where('varset_id', '=', setId)
        .orderBy('number', 'desc')
        .limit(1)
        .execute();
      assert.equal(newest!.action, expected.version);
      assert.equal(newest!.request_id, String(res.headers['x-request-id']));
      const made = (await events()).filter((e) => !known.has(e.id));
      assert.deepEqual(
        made.map((e) => ({ type: e.resource_type, id: e.resource_id, action: e.action })),
        [expected.event],
        'one audit event',
      );
    });
  }

  it('a rollback dry run and a preview are taken back: no version, no event', async () => {
    const set = await createVarset(t, scene.org, { attributes: { description: 'first' } });
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}`, { data: { type: 'varsets', attributes: { description: 'second' } } }),
      200,
    );
    const [, first] = await listVersions(t, set.id);
    const eventsBefore = (await events()).length;
    expectStatus(
      await t.post(`/api/v2/varsets/${set.id}/actions/rollback?dry-run=true`, {
        data: { type: 'varset-versions', id: first.id },
      }),
      200,
    );
    expectStatus(
      await t.post(`/api/v2/varsets/${set.id}/actions/preview`, {
        data: { type: 'varsets', attributes: { description: 'third' } },
      }),
      200,
    );
    assert.equal(await versionCount(set.id), 2);
    assert.equal((await events()).length, eventsBefore);
    const shown = await t.get(`/api/v2/varsets/${set.id}`);
    assert.equal(shown.body.data.attributes.description, 'second');
  });

  it('a caller names why it writes (Context.cause): the event keeps it beside who wrote', async () => {
    const set = await createVarset(t, scene.org);
    const ctx: Context = {
      store: t.store,
      subject: commandLineSubject('importer'),
      sealer: t.app.sealer,
      requestId: randomUUID(),
      cause: 'import from https://example.test/sets.json',
    };
    await updateVarset(ctx, set.id, { description: 'imported', variables: [] });
    const [event] = await t.store.db
      .selectFrom('audit_events')
      .select(['auth_type', 'accessor_id', 'meta'])
      .where('resource_id', '=', set.id)
      .where('action', '=', 'update')
      .execute();
    assert.deepEqual([event!.auth_type, event!.accessor_id], ['CommandLine', 'importer']);
    assert.deepEqual(JSON.parse(event!.meta!), {
      name: set.attributes.name,
      cause: 'import from https://example.test/sets.json',
    });
    assert.equal(await versionCount(set.id), 2);
  });

  it("replacing a set whole (the command line's import): one version, one event, with its cause", async () => {
    const set = await createVarset(t, scene.org, {
      vars: [
        { key: 'changed', value: 'v' },
        { key: 'removed', value: 'v' },
      ],
    });
    const vars = (await t.get(`/api/v2/varsets/${set.id}/relationships/vars`)).body.data as {
      id: string;
      attributes: { key: string };
    }[];
    const idOf = (key: string) => vars.find((v) => v.attributes.key === key)!.id;
    const ctx: Context = {
      store: t.store,
      subject: commandLineSubject('importer'),
      sealer: t.app.sealer,
      requestId: randomUUID(),
      cause: 'import from /tmp/export',
    };
    const known = new Set((await events()).map((e) => e.id));
    await replaceVarset(ctx, set.id, {
      command: {
        description: 'replaced',
        workspaceIds: [scene.ws],
        variables: [{ changes: { key: 'added', category: 'env', value: 's', sensitive: true }, at: 'vars[0]' }],
      },
      updates: [{ id: idOf('changed'), changes: { value: 'w' } }],
      deletions: [idOf('removed')],
    });
    assert.equal(await versionCount(set.id), 2, 'one version');
    const made = (await events()).filter((e) => !known.has(e.id));
    assert.deepEqual(
      made.map((e) => ({ type: e.resource_type, id: e.resource_id, action: e.action })),
      [setEvent(set.id, 'update')],
      'one audit event',
    );
    const [event] = await t.store.db.selectFrom('audit_events').select('meta').where('id', '=', made[0]!.id).execute();
    assert.equal(JSON.parse(event!.meta!).cause, 'import from /tmp/export');
    const after = (await t.get(`/api/v2/varsets/${set.id}/relationships/vars`)).body.data.map((v: any) => [
      v.attributes.key,
      v.attributes.value,
    ]);
    assert.deepEqual(after.sort(), [
      ['added', null],
      ['changed', 'w'],
    ]);
    const shown = (await t.get(`/api/v2/varsets/${set.id}`)).body.data;
    assert.equal(shown.attributes.description, 'replaced');
    assert.deepEqual(
      shown.relationships.workspaces.data.map((w: { id: string }) => w.id),
      [scene.ws],
    );
  });

  it('takenBack answers the work’s result and keeps nothing of it; an error of the work is the error', async () => {
    const name = `taken-back-${randomUUID()}`;
    const result = await takenBack(t.store, async (trx) => {
      await trx.updateTable('varsets').set({ description: name }).where('organization_id', '=', orgId).execute();
      return (await trx.selectFrom('varsets').select('id').where('description', '=', name).execute()).length;
    });
    assert.ok(result > 0);
    assert.equal(
      (await t.store.db.selectFrom('varsets').select('id').where('description', '=', name).execute()).length,
      0,
    );
    await assert.rejects(
      takenBack(t.store, async () => {
        throw new Error('refused');
      }),
      /refused/,
    );
  });
});

describe('the one write path of sets', () => {
  const varsets = path.join(import.meta.dirname, '..', 'src', 'varsets');
  const files = fs.readdirSync(varsets, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));

  it('is the only code of sets that locks, records versions and audit events, and publishes what a write of a set does', () => {
    const recording = /\b(withOrganizationLocked|recordVersion|recordAuditEvent|recordVariableEvent|publish)\b/;
    const outside = files.filter(
      (file) => file !== 'write-path.ts' && recording.test(fs.readFileSync(path.join(varsets, file), 'utf8')),
    );
    // A workspace's or project's deletion records the versions of the sets it changes, in its own transaction.
    assert.deepEqual(outside, ['cascades.ts', path.join('versions', 'record.ts')]);
    const cascades = fs.readFileSync(path.join(varsets, 'cascades.ts'), 'utf8');
    assert.doesNotMatch(cascades, /\b(withOrganizationLocked|recordAuditEvent|publish)\b/);
  });
});
