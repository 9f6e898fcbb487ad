import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { events, EventRegistry } from '../src/events/registry.js';
import { TestApp } from './support/app.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Every trigger of the store, with the text it runs (PostgreSQL: its function's). */
async function triggers(t: TestApp): Promise<{ name: string; table: string; body: string }[]> {
  if (t.store.dialect === 'postgres') {
    const { rows } = await sql<{ name: string; table: string; body: string }>`
      select tg.tgname as name, c.relname as "table", p.prosrc as body
      from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_proc p on p.oid = tg.tgfoid
      where not tg.tgisinternal`.execute(t.store.db);
    return rows;
  }
  const { rows } = await sql<{ name: string; table: string; body: string }>`
    select name, tbl_name as "table", sql as body from sqlite_master where type = 'trigger'`.execute(t.store.db);
  return rows;
}

describe(`the registry of domain events (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  it('is filled at start with what each feature reacts to, in the transaction where it must be and outside it where it may', () => {
    assert.deepEqual(events.subscriptionsOf('organization.created'), { inTransaction: 2, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('organization.updated'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('organization.deleting'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('workspace.deleting'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('project.deleting'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('varset.writing'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('varset.written'), { inTransaction: 1, outside: 0, inDatabase: 0 });
    assert.deepEqual(events.subscriptionsOf('varset.versioned'), { inTransaction: 0, outside: 0, inDatabase: 1 });
    assert.deepEqual(events.subscriptionsOf('varset.global-rule-conflict'), {
      inTransaction: 0,
      outside: 1,
      inDatabase: 0,
    });
    assert.deepEqual(events.subscriptionsOf('db.statement-failure'), { inTransaction: 0, outside: 1, inDatabase: 0 });
  });

  it('refuses a reaction in a transaction before it is filled, and is filled once', async () => {
    const registry = new EventRegistry();
    await assert.rejects(
      registry.publish('project.deleting', { trx: undefined as never, ctx: undefined as never, projectId: 'prj-x' }),
      /the event project\.deleting was published before the registry of events was filled/,
    );
    let seen = 0;
    registry.fill([
      (on) =>
        on.inTransaction('project.deleting', async () => {
          seen++;
        }),
    ]);
    registry.fill([
      (on) =>
        on.inTransaction('project.deleting', async () => {
          seen += 10;
        }),
    ]);
    await registry.publish('project.deleting', { trx: undefined as never, ctx: undefined as never, projectId: 'p' });
    assert.equal(seen, 1);
    registry.fill([
      (on) =>
        on.outside('db.statement-failure', () => {
          seen++;
        }),
    ]);
    registry.announce('db.statement-failure', { kind: 'other' });
    assert.equal(seen, 1, 'announced to no one, and never thrown');
  });

  it('holds the database to what its features declare: each declared trigger exists on its table, and only those queue notifications', async () => {
    const declared = events.databaseSubscriptions();
    assert.deepEqual(
      declared.map(({ event, feature, trigger, table }) => ({ event, feature, trigger, table })),
      [
        {
          event: 'varset.versioned',
          feature: 'notifications',
          trigger: 'varset_versions_notify',
          table: 'varset_versions',
        },
      ],
    );
    const found = await triggers(t);
    for (const { trigger, table } of declared)
      assert.ok(
        found.some((f) => f.name === trigger && f.table === table),
        `${trigger} on ${table}`,
      );
    const queueing = found.filter((f) => /varset_notification_deliveries/.test(f.body)).map((f) => f.name);
    assert.deepEqual(queueing, ['varset_versions_notify']);
  });

  it("queues one delivery per configuration for a version, whether this server's write or an older server's insert made it", async () => {
    const org = await t.createOrganization();
    const configurations = [];
    for (const triggers of [['varset:created', 'varset:changed'], ['varset:created'], ['varset:deleted']]) {
      const created = await t.post(`/api/v2/organizations/${org}/varset-notification-configurations`, {
        data: {
          type: 'varset-notification-configurations',
          attributes: {
            name: `c-${randomUUID()}`,
            'destination-type': 'generic',
            url: 'https://example.com/hook',
            enabled: true,
            triggers,
          },
        },
      });
      expectStatus(created, 201);
      configurations.push(created.body.data.id as string);
    }
    const set = await createVarset(t, org);
    const queued = async (number: number) =>
      (
        await t.store.db
          .selectFrom('varset_notification_deliveries')
          .select('configuration_id')
          .where('varset_id', '=', set.id)
          .where('number', '=', number)
          .execute()
      )
        .map((row) => row.configuration_id)
        .sort();
    assert.deepEqual(await queued(1), [configurations[0], configurations[1]].sort());

    // A version as a 0.3.0 server inserts it, beside this one during a rolling upgrade.
    const first = await t.store.db
      .selectFrom('varset_versions')
      .selectAll()
      .where('varset_id', '=', set.id)
      .executeTakeFirstOrThrow();
    await t.store.db
      .insertInto('varset_versions')
      .values({ ...first, id: `${first.id}-older`, number: 2, action: 'update' })
      .execute();
    assert.deepEqual(await queued(2), [configurations[0]]);
  });
});
