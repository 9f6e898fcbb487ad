import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pruneAuditTrailPeriodically } from '../src/audit/retention.js';
import { pruneAuditEvents } from '../src/audit/service.js';
import type { Store } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { insertEvent, organizationId } from './support/factories/audit.js';
import { storeKind } from './support/store.js';

/** Events older than the retention are removed, a batch at a time; a store outage only postpones it. */

const DAY = 86_400_000;

describe(`audit trail: retention (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let orgId: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    orgId = await organizationId(t, org);
  });
  after(() => t.close());

  const remaining = async () =>
    (await t.store.db.selectFrom('audit_events').select('id').where('organization_id', '=', orgId).execute())
      .map((e) => e.id)
      .sort();

  it('deletes the events older than the retention, in batches, and keeps the others', async () => {
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY).toISOString();
    const old = [
      await insertEvent(t, orgId, at(400)),
      await insertEvent(t, orgId, at(91)),
      await insertEvent(t, orgId, at(90.001)),
      await insertEvent(t, orgId, at(200)),
    ];
    const kept = [await insertEvent(t, orgId, at(89.999)), await insertEvent(t, orgId, at(1))];
    const everything = await remaining();

    assert.equal(await pruneAuditEvents(t.store, 0, now, 2), 0, '0 keeps every event');
    assert.deepEqual(await remaining(), everything);

    // Four old events, two per statement: three statements, the last one short.
    assert.equal(await pruneAuditEvents(t.store, 90, now, 2), old.length);
    const left = await remaining();
    for (const id of kept) assert.ok(left.includes(id));
    for (const id of old) assert.ok(!left.includes(id));
    assert.equal(left.length, everything.length - old.length);
    assert.equal(await pruneAuditEvents(t.store, 90, now, 2), 0);
    // The counts the trail's pages tell follow.
    const trail = await t.get(`/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}`);
    assert.equal(trail.body.pagination.total_count, left.length);
    const since = await t.get(
      `/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${org}&since=${encodeURIComponent(at(95))}`,
    );
    assert.equal(since.body.pagination.total_count, left.length);
    const emptyHours = await t.store.db
      .selectFrom('audit_event_hours')
      .select('hour')
      .where('events', '<=', 0)
      .execute();
    assert.deepEqual(emptyHours, [], 'hours whose events are all gone are forgotten');
  });

  it("prunes every organization's old events, organization by organization, and no other event", async () => {
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY).toISOString();
    const others = await Promise.all([1, 2].map(async () => organizationId(t, await t.createOrganization())));
    const old = await Promise.all(
      others.flatMap((id) => [insertEvent(t, id, at(120)), insertEvent(t, id, at(95)), insertEvent(t, id, at(91))]),
    );
    const kept = await Promise.all(others.map((id) => insertEvent(t, id, at(3))));
    const before = (await t.store.db.selectFrom('audit_events').select('id').execute()).map((e) => e.id);

    assert.equal(await pruneAuditEvents(t.store, 90, now, 2), old.length);
    const after = (await t.store.db.selectFrom('audit_events').select('id').execute()).map((e) => e.id);
    assert.deepEqual(after.sort(), before.filter((id) => !old.includes(id)).sort());
    for (const id of kept) assert.ok(after.includes(id));
  });

  it('logs a failure and tries again later, without stopping the process', async () => {
    const failing = {
      get db(): never {
        throw new Error('the store is down');
      },
    } as unknown as Store;
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_: object, message: string) => void warnings.push(message) };
    const stop = pruneAuditTrailPeriodically(failing, 90, log, 5);
    await new Promise((resolve) => setTimeout(resolve, 60));
    stop();
    assert.ok(warnings.length >= 2, `tried ${warnings.length} times`);
    assert.ok(warnings.every((w) => w.includes('pruning the audit trail failed')));
  });

  it('prunes periodically from the process that asks, and not at all with retention 0', async () => {
    const oldId = await insertEvent(t, orgId, new Date(Date.now() - 365 * DAY).toISOString());
    const log = { info: () => {}, warn: () => {} };
    const never = pruneAuditTrailPeriodically(t.store, 0, log, 5);
    await new Promise((resolve) => setTimeout(resolve, 40));
    never();
    assert.ok((await remaining()).includes(oldId));
    const stop = pruneAuditTrailPeriodically(t.store, 30, log, 5);
    for (let i = 0; i < 100 && (await remaining()).includes(oldId); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stop();
    assert.ok(!(await remaining()).includes(oldId));
  });
});
