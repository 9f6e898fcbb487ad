import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestApp } from './support/app.js';
import { ownersTeam, organizationToken, teamToken } from './support/factories/access.js';
import { insertEvent, organizationId } from './support/factories/audit.js';
import { expectStatus, NOT_FOUND, UNAUTHORIZED } from './support/requests.js';
import { storeKind } from './support/store.js';

/** Reading the audit trail: its shape, pages, `since`, who may read it, and bad parameters. */

const TRAIL = '/api/v2/organization/audit-trail';
const named = (org: string) => `filter%5Borganization%5D%5Bname%5D=${org}`;

describe(`audit trail: reading it (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  let orgId: string;
  let orgToken: string;
  /** Five events of `org` at 00:00:01 … 00:00:05 on 2021-01-01, oldest first. */
  const stamped: string[] = [];

  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
    orgId = await organizationId(t, org);
    orgToken = await organizationToken(t, org);
    for (let second = 1; second <= 5; second++)
      stamped.push(await insertEvent(t, orgId, `2021-01-01T00:00:0${second}.000Z`));
  });
  after(() => t.close());

  it('answers the documented shape, as plain JSON, newest first', async () => {
    const res = await t.get(TRAIL, { token: orgToken });
    expectStatus(res, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'pagination']);
    assert.deepEqual(Object.keys(res.body.pagination).sort(), [
      'current_page',
      'next_page',
      'prev_page',
      'total_count',
      'total_pages',
    ]);
    // Newest first: the organization token's creation, the organization's own, then the five of 2021.
    assert.deepEqual(res.body.data.map((e: any) => `${e.resource.type} ${e.resource.action}`).slice(0, 2), [
      'authentication_token create',
      'organization create',
    ]);
    assert.deepEqual(
      res.body.data.slice(2).map((e: any) => e.id),
      [...stamped].reverse(),
    );
    for (const event of res.body.data) {
      assert.deepEqual(Object.keys(event).sort(), [
        'auth',
        'id',
        'request',
        'resource',
        'timestamp',
        'type',
        'version',
      ]);
      assert.deepEqual(Object.keys(event.auth).sort(), [
        'accessor_id',
        'description',
        'impersonator_id',
        'organization_id',
        'type',
      ]);
      assert.deepEqual(Object.keys(event.request), ['id']);
      assert.deepEqual(Object.keys(event.resource).sort(), ['action', 'id', 'meta', 'type']);
      assert.match(event.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(event.version, '0');
      assert.equal(event.type, 'Resource');
      assert.match(event.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(event.auth.type, 'Client');
      assert.equal(event.auth.impersonator_id, null);
      assert.equal(event.auth.organization_id, orgId);
      for (const value of [
        event.auth.accessor_id,
        event.auth.description,
        event.request.id,
        event.resource.id,
        event.resource.type,
        event.resource.action,
      ])
        assert.equal(typeof value, 'string');
      assert.ok(
        event.resource.meta === null ||
          (typeof event.resource.meta === 'object' && !Array.isArray(event.resource.meta)),
      );
    }
    const [tokenEvent] = res.body.data;
    assert.deepEqual(tokenEvent.resource.meta, { kind: 'organization', team_id: null, description: '' });
    assert.deepEqual(res.body.pagination, {
      current_page: 1,
      prev_page: null,
      next_page: null,
      total_pages: 1,
      total_count: 7,
    });
  });

  it('pages through the trail', async () => {
    const page = async (n: number) =>
      (await t.get(`${TRAIL}?page%5Bsize%5D=3&page%5Bnumber%5D=${n}`, { token: orgToken })).body;
    const [first, second, third, beyond] = [await page(1), await page(2), await page(3), await page(9)];
    assert.deepEqual(first.pagination, {
      current_page: 1,
      prev_page: null,
      next_page: 2,
      total_pages: 3,
      total_count: 7,
    });
    assert.deepEqual(second.pagination, {
      current_page: 2,
      prev_page: 1,
      next_page: 3,
      total_pages: 3,
      total_count: 7,
    });
    assert.deepEqual(third.pagination, {
      current_page: 3,
      prev_page: 2,
      next_page: null,
      total_pages: 3,
      total_count: 7,
    });
    assert.deepEqual(beyond, {
      data: [],
      pagination: { current_page: 9, prev_page: 3, next_page: null, total_pages: 3, total_count: 7 },
    });
    const ids = [...first.data, ...second.data, ...third.data].map((e: any) => e.id);
    assert.deepEqual(ids.slice(2), [...stamped].reverse());
    assert.equal(new Set(ids).size, 7);
  });

  it('answers only the events at or after `since`, whatever its offset or precision', async () => {
    const since = async (value: string) => {
      const res = await t.get(`${TRAIL}?since=${encodeURIComponent(value)}`, { token: orgToken });
      expectStatus(res, 200);
      return res.body;
    };
    const atThird = await since('2021-01-01T00:00:03.000Z');
    assert.equal(atThird.pagination.total_count, 5);
    assert.deepEqual(
      atThird.data.slice(2).map((e: any) => e.id),
      [stamped[4], stamped[3], stamped[2]],
    );
    assert.equal((await since('2021-01-01T01:00:03+01:00')).pagination.total_count, 5);
    assert.equal((await since('2021-01-01T00:00:03Z')).pagination.total_count, 5);
    assert.equal(
      (await since('2021-01-01T00:00:03.000001Z')).pagination.total_count,
      4,
      'a finer since excludes the event of its millisecond',
    );
    assert.equal((await since('2020-12-31T23:59:59.999-00:00')).pagination.total_count, 7);
    assert.equal((await since('2999-01-01T00:00:00Z')).pagination.total_count, 0);
    // go-tfe sends an offset's + encoded; a + left unencoded arrives as a space, and means the same.
    const res = await t.get(`${TRAIL}?since=2021-01-01T01:00:03+01:00`, { token: orgToken });
    expectStatus(res, 200);
    assert.equal(res.body.pagination.total_count, 5);
  });

  it("counts the events of since's own hour and of the hours after it", async () => {
    const other = await t.createOrganization();
    const otherId = await organizationId(t, other);
    for (const time of ['00:30', '01:10', '01:50', '02:05', '05:00'])
      await insertEvent(t, otherId, `2021-03-01T${time}:00.000Z`);
    const total = async (since: string) =>
      (await t.get(`${TRAIL}?${named(other)}&since=${since}`)).body.pagination.total_count;
    // The organization's own creation, today, counts too.
    assert.equal(await total('2021-03-01T01:20:00.000Z'), 4);
    assert.equal(await total('2021-03-01T01:10:00.000Z'), 5);
    assert.equal(await total('2021-03-01T01:10:00.001Z'), 4);
    assert.equal(await total('2021-03-01T00:00:00.000Z'), 6);
    assert.equal(await total('2021-03-01T05:00:00.000Z'), 2);
    assert.equal((await t.get(`${TRAIL}?${named(other)}`)).body.pagination.total_count, 6);
  });

  it('refuses bad parameters with a JSON:API 400 naming them', async () => {
    const bad: [string, string][] = [
      ['since=yesterday', 'since'],
      ['since=2021-02-30T00:00:00Z', 'since'],
      ['since=2021-13-01T00:00:00Z', 'since'],
      ['since=2021-01-01T24:00:00Z', 'since'],
      ['since=2021-01-01', 'since'],
      ['since=2021-01-01T00:00:00', 'since'],
      ['since=a&since=b', 'since'],
      ['page%5Bsize%5D=1001', 'page[size]'],
      ['page%5Bsize%5D=0', 'page[size]'],
      ['page%5Bnumber%5D=two', 'page[number]'],
      ['page%5Bnumber%5D=-1', 'page[number]'],
      ['include=organization', 'include'],
      ['filter%5Bworkspace%5D%5Bname%5D=x', 'filter[workspace][name]'],
    ];
    for (const [query, parameter] of bad) {
      const res = await t.get(`${TRAIL}?${query}`, { token: orgToken });
      assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      assert.match(String(res.headers['content-type']), /^application\/vnd\.api\+json/);
      assert.equal(res.body.errors[0].status, '400', query);
      assert.equal(res.body.errors[0].source?.parameter, parameter, query);
    }
    expectStatus(await t.get(`${TRAIL}?page%5Bsize%5D=1000`, { token: orgToken }), 200);
  });

  it('answers the organization token and the site administrator who names the organization; refuses every team token', async () => {
    const other = await t.createOrganization();
    const otherToken = await organizationToken(t, other);
    expectStatus(await t.get(`${TRAIL}?${named(org)}`, { token: orgToken }), 200);
    assert.deepEqual((await t.get(`${TRAIL}?${named(other)}`, { token: orgToken })).body, NOT_FOUND);
    assert.equal((await t.get(`${TRAIL}?${named(other)}`, { token: orgToken })).status, 404);
    assert.equal((await t.get(`${TRAIL}?${named('no-such-org')}`, { token: orgToken })).status, 404);

    const owners = await teamToken(t, await ownersTeam(t, org));
    for (const query of ['', `?${named(org)}`]) {
      const res = await t.get(`${TRAIL}${query}`, { token: owners });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, NOT_FOUND);
    }

    const admin = await t.get(TRAIL);
    assert.equal(admin.status, 400);
    assert.equal(admin.body.errors[0].source.parameter, 'filter[organization][name]');
    assert.equal((await t.get(`${TRAIL}?${named('no-such-org')}`)).status, 404);
    const ofOther = await t.get(`${TRAIL}?${named(other)}`);
    expectStatus(ofOther, 200);
    const otherId = await organizationId(t, other);
    assert.ok(ofOther.body.data.length > 0);
    assert.ok(
      ofOther.body.data.every((e: any) => e.auth.organization_id === otherId),
      "only the named organization's events",
    );
    const own = await t.get(TRAIL, { token: otherToken });
    assert.deepEqual(
      own.body.data.map((e: any) => e.id),
      ofOther.body.data.map((e: any) => e.id),
    );

    assert.deepEqual((await t.get(TRAIL, { token: null })).body, UNAUTHORIZED);
    const refusing = await t.createOrganization();
    expectStatus(
      await t.patch(`/api/v2/organizations/${refusing}`, {
        data: { type: 'organizations', attributes: { 'user-tokens-enabled': false } },
      }),
      200,
    );
    assert.deepEqual((await t.get(`${TRAIL}?${named(refusing)}`)).body, UNAUTHORIZED);
  });
});
