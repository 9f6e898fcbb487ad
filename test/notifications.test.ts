import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import dns from 'node:dns/promises';
import os from 'node:os';
import { TestApp } from './support/app.js';
import { organizationToken, ownersTeam, teamToken, teamWithToken } from './support/factories/access.js';
import { Receiver } from './support/notifications.js';
import { ADMIN_TOKEN, expectStatus, NOT_FOUND, UNAUTHORIZED } from './support/requests.js';
import { storeKind } from './support/store.js';
import { isPrivateAddress } from '../src/notifications/addresses.js';
import { createKeyring, keyringKey } from '../src/secrets/keyring.js';
import { resealValues } from '../src/secrets/reseal.js';
import { generateKey } from '../src/secrets/sealer.js';

const TYPE = 'varset-notification-configurations';
const body = (attributes: Record<string, unknown>) => ({ data: { type: TYPE, attributes } });

describe(`notification configurations (${storeKind})`, () => {
  let t: TestApp;
  /** The same database, with private destinations allowed (as VARSETD_NOTIFICATIONS_ALLOW_PRIVATE=true). */
  let open: TestApp;
  let receiver: Receiver;
  let org: string;

  before(async () => {
    t = await TestApp.start();
    open = await t.sibling(undefined, { notifications: { allowPrivateAddresses: true } });
    receiver = await Receiver.start();
    org = await t.createOrganization();
  });
  after(async () => {
    await receiver.close();
    await open.close();
    await t.close();
  });

  const create = (app: TestApp, attributes: Record<string, unknown>, token?: string, organization = org) =>
    app.post(`/api/v2/organizations/${organization}/${TYPE}`, body(attributes), token === undefined ? {} : { token });
  const generic = (extra: Record<string, unknown> = {}) => ({
    name: 'pipeline',
    'destination-type': 'generic',
    url: receiver.url,
    enabled: true,
    triggers: ['varset:changed'],
    ...extra,
  });

  it('creates, shows, lists, updates and deletes a configuration; the token is never answered', async () => {
    const created = await create(open, generic({ token: 'marker-token-never-shown' }));
    expectStatus(created, 201);
    const { id, type, attributes, relationships } = created.body.data;
    assert.match(id, /^nc-/);
    assert.equal(type, TYPE);
    assert.deepEqual(
      { ...attributes, 'created-at': undefined, 'updated-at': undefined },
      {
        name: 'pipeline',
        'destination-type': 'generic',
        url: receiver.url,
        'has-token': true,
        enabled: true,
        triggers: ['varset:changed'],
        'delivery-responses': [],
        'created-at': undefined,
        'updated-at': undefined,
      },
    );
    assert.deepEqual(relationships.organization.data, { id: org, type: 'organizations' });
    const shown = await t.get(`/api/v2/${TYPE}/${id}`);
    expectStatus(shown, 200);
    assert.deepEqual(shown.body.data, created.body.data);
    const listed = await t.get(`/api/v2/organizations/${org}/${TYPE}`);
    expectStatus(listed, 200);
    assert.ok(listed.body.data.some((c: any) => c.id === id));
    assert.equal(listed.body.meta.pagination['total-count'], listed.body.data.length);

    const updated = await open.patch(
      `/api/v2/${TYPE}/${id}`,
      body({ name: 'renamed', triggers: ['varset:deleted', 'varset:created', 'varset:created'], token: '' }),
    );
    expectStatus(updated, 200);
    assert.equal(updated.body.data.attributes.name, 'renamed');
    assert.deepEqual(updated.body.data.attributes.triggers, ['varset:created', 'varset:deleted']);
    assert.equal(updated.body.data.attributes['has-token'], false);
    assert.equal(updated.body.data.attributes.url, receiver.url);

    for (const res of [created, shown, listed, updated]) assert.ok(!JSON.stringify(res.body).includes('marker-token'));
    expectStatus(await t.delete(`/api/v2/${TYPE}/${id}`), 204);
    assert.deepEqual((await t.get(`/api/v2/${TYPE}/${id}`)).body, NOT_FOUND);
  });

  it('is managed by the owners, the organization token and the site administrator; anyone else gets the 404 of a missing one', async () => {
    const owners = await teamToken(t, await ownersTeam(t, org));
    const orgToken = await organizationToken(t, org);
    for (const token of [owners, orgToken, ADMIN_TOKEN]) {
      const res = await create(open, generic({ name: `by-${token.slice(0, 6)}` }), token);
      expectStatus(res, 201);
      expectStatus(await t.get(`/api/v2/${TYPE}/${res.body.data.id}`, { token }), 200);
      expectStatus(await t.delete(`/api/v2/${TYPE}/${res.body.data.id}`, undefined, { token }), 204);
    }
    const id = (await create(open, generic())).body.data.id;
    const manager = await teamWithToken(t, org, {
      'organization-access': { 'manage-workspaces': true, 'manage-projects': true, 'manage-teams': true },
    });
    const elsewhere = await t.createOrganization();
    const otherOwners = await teamToken(t, await ownersTeam(t, elsewhere));
    for (const token of [manager.token, otherOwners]) {
      assert.deepEqual((await t.get(`/api/v2/organizations/${org}/${TYPE}`, { token })).body, NOT_FOUND);
      assert.deepEqual((await create(open, generic(), token)).body, NOT_FOUND);
      assert.deepEqual((await t.get(`/api/v2/${TYPE}/${id}`, { token })).body, NOT_FOUND);
      assert.deepEqual((await t.patch(`/api/v2/${TYPE}/${id}`, body({ name: 'x' }), { token })).body, NOT_FOUND);
      assert.deepEqual((await t.post(`/api/v2/${TYPE}/${id}/actions/verify`, undefined, { token })).body, NOT_FOUND);
      assert.deepEqual((await t.delete(`/api/v2/${TYPE}/${id}`, undefined, { token })).body, NOT_FOUND);
    }
    assert.deepEqual((await t.get(`/api/v2/${TYPE}/${id}`, { token: null })).body, UNAUTHORIZED);
    assert.deepEqual((await t.get(`/api/v2/organizations/missing-org/${TYPE}`)).body, NOT_FOUND);
    assert.deepEqual((await create(open, generic(), ADMIN_TOKEN, 'missing-org')).body, NOT_FOUND);
    assert.deepEqual((await t.get(`/api/v2/${TYPE}/nc-missing`)).body, NOT_FOUND);
    expectStatus(await t.get(`/api/v2/${TYPE}/${id}`), 200);
    expectStatus(await t.delete(`/api/v2/${TYPE}/${id}`), 204);
  });

  it('refuses bad input with a 422 at the attribute, and changes nothing', async () => {
    const before = (await t.get(`/api/v2/organizations/${org}/${TYPE}`)).body.meta.pagination['total-count'];
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined }, '/data/attributes/name'],
      [{ name: '   ' }, '/data/attributes/name'],
      [{ url: undefined }, '/data/attributes/url'],
      [{ 'destination-type': undefined }, '/data/attributes/destination-type'],
      [{ 'destination-type': 'email' }, '/data/attributes/destination-type'],
      [{ url: 'ftp://example.com/hook' }, '/data/attributes/url'],
      [{ url: 'not a url' }, '/data/attributes/url'],
      [{ url: 42 }, '/data/attributes/url'],
      [{ enabled: 'yes' }, '/data/attributes/enabled'],
      [{ triggers: ['varset:changed', 'run:completed'] }, '/data/attributes/triggers/1'],
      [{ triggers: 'varset:changed' }, '/data/attributes/triggers'],
      [{ token: 'x'.repeat(1025) }, '/data/attributes/token'],
      [{ name: 'n'.repeat(256) }, '/data/attributes/name'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await create(open, generic(attributes));
      assert.equal(res.status, 422, `${JSON.stringify(attributes)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source?.pointer, pointer, JSON.stringify(attributes));
    }
    assert.equal((await t.get(`/api/v2/organizations/${org}/${TYPE}`)).body.meta.pagination['total-count'], before);
    const id = (await create(open, generic())).body.data.id;
    const res = await open.patch(`/api/v2/${TYPE}/${id}`, body({ url: 'gopher://example.com' }));
    assert.equal(res.status, 422);
    assert.equal((await t.get(`/api/v2/${TYPE}/${id}`)).body.data.attributes.url, receiver.url);
    expectStatus(await t.delete(`/api/v2/${TYPE}/${id}`), 204);
  });

  it('refuses private, loopback and link-local destinations unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:9000/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://localhost:9000/',
      'http://api.localhost/',
      'http://0.0.0.0/',
    ]) {
      const res = await create(t, generic({ url }));
      assert.equal(res.status, 422, url);
      assert.equal(res.body.errors[0].source.pointer, '/data/attributes/url');
      assert.match(res.body.errors[0].detail, /private, loopback or link-local/);
    }
    const publicOne = await create(t, generic({ url: 'https://hooks.example.com/services/T/B/X' }));
    expectStatus(publicOne, 201);
    expectStatus(await t.delete(`/api/v2/${TYPE}/${publicOne.body.data.id}`), 204);
    // Allowed, a loopback URL is accepted; delivered by a process that does not allow it, it is refused before connecting.
    const loopback = await create(open, generic({ url: receiver.url }));
    expectStatus(loopback, 201);
    const refused = await t.post(`/api/v2/${TYPE}/${loopback.body.data.id}/actions/verify`);
    expectStatus(refused, 200);
    const [response] = refused.body.data.attributes['delivery-responses'];
    assert.equal(response.successful, false);
    assert.equal(response.code, null);
    assert.match(response.error, /refused/);
    expectStatus(await t.delete(`/api/v2/${TYPE}/${loopback.body.data.id}`), 204);
  });

  it('refuses a name that resolves to a private address when sending', async (test) => {
    const name = os.hostname();
    const addresses = await dns.lookup(name, { all: true }).catch(() => []);
    if (!addresses.length || !addresses.every((a) => isPrivateAddress(a.address)))
      return test.skip(`${name} does not resolve to private addresses only here`);
    const received = receiver.received.length;
    const port = new URL(receiver.url).port;
    const created = await create(t, generic({ url: `http://${name}:${port}/hook` }));
    expectStatus(created, 201);
    const verified = await t.post(`/api/v2/${TYPE}/${created.body.data.id}/actions/verify`);
    const [response] = verified.body.data.attributes['delivery-responses'];
    assert.equal(response.successful, false);
    assert.match(response.error, /resolves to .*private/);
    assert.equal(receiver.received.length, received);
    expectStatus(await t.delete(`/api/v2/${TYPE}/${created.body.data.id}`), 204);
  });

  it('verify sends a signed test payload and answers the configuration with the response', async () => {
    const created = await create(open, generic({ token: 'verify-secret' }));
    const id = created.body.data.id;
    const count = receiver.received.length;
    receiver.answer = () => ({ status: 200, body: 'received it' });
    const verified = await open.post(`/api/v2/${TYPE}/${id}/actions/verify`);
    expectStatus(verified, 200);
    assert.equal(receiver.received.length, count + 1);
    const request = receiver.received[count]!;
    assert.equal(
      request.headers['x-tfe-notification-signature'],
      createHmac('sha512', 'verify-secret').update(request.body).digest('hex'),
    );
    assert.equal(request.json.trigger, 'verification');
    assert.equal(request.json.notification_configuration_id, id);
    assert.ok(!request.body.includes('verify-secret'));
    const [response] = verified.body.data.attributes['delivery-responses'];
    assert.deepEqual(
      { ...response, 'sent-at': undefined, headers: undefined },
      {
        url: receiver.url,
        code: 200,
        body: 'received it',
        error: null,
        successful: true,
        'sent-at': undefined,
        headers: undefined,
        'varset-id': null,
        'version-number': null,
        attempt: null,
      },
    );
    assert.deepEqual(response.headers['content-type'], ['text/plain']);
    receiver.answer = () => ({ status: 500, body: 'broken' });
    const failed = await open.post(`/api/v2/${TYPE}/${id}/actions/verify`);
    expectStatus(failed, 200);
    assert.deepEqual(
      failed.body.data.attributes['delivery-responses'].map((r: any) => [r.code, r.successful]),
      [
        [500, false],
        [200, true],
      ],
    );
    receiver.answer = () => ({ status: 200, body: 'ok' });
    // Without a token, nothing is signed; a Slack destination is never signed.
    const unsigned = await create(open, generic({ name: 'slack', 'destination-type': 'slack', token: 'unused' }));
    await open.post(`/api/v2/${TYPE}/${unsigned.body.data.id}/actions/verify`);
    const slack = receiver.received.at(-1)!;
    assert.equal(slack.headers['x-tfe-notification-signature'], undefined);
    assert.equal(typeof slack.json.text, 'string');
    // Only the newest ten responses are kept.
    for (let i = 0; i < 10; i++) expectStatus(await open.post(`/api/v2/${TYPE}/${id}/actions/verify`), 200);
    const kept = await t.store.db
      .selectFrom('varset_notification_responses')
      .select('id')
      .where('configuration_id', '=', id)
      .execute();
    assert.equal(kept.length, 10);
    assert.equal((await t.get(`/api/v2/${TYPE}/${id}`)).body.data.attributes['delivery-responses'].length, 10);
    for (const configuration of [id, unsigned.body.data.id])
      expectStatus(await t.delete(`/api/v2/${TYPE}/${configuration}`), 204);
  });

  it('an organization has at most 20 configurations', async () => {
    const crowded = await t.createOrganization();
    for (let i = 0; i < 20; i++)
      expectStatus(await create(open, generic({ name: `c${i}` }), ADMIN_TOKEN, crowded), 201);
    const res = await create(open, generic({ name: 'one too many' }), ADMIN_TOKEN, crowded);
    assert.equal(res.status, 422);
    const page = await t.get(`/api/v2/organizations/${crowded}/${TYPE}?page%5Bsize%5D=5&page%5Bnumber%5D=4`);
    expectStatus(page, 200);
    assert.deepEqual(
      page.body.data.map((c: any) => c.attributes.name),
      ['c15', 'c16', 'c17', 'c18', 'c19'],
    );
    assert.equal(page.body.meta.pagination['total-count'], 20);
  });
});

describe(`notification tokens at rest (${storeKind})`, () => {
  it('are sealed with the encryption key, never in the clear, and key rotation re-encrypts them', async () => {
    const t = await TestApp.start({ notifications: { allowPrivateAddresses: true } });
    try {
      const org = await t.createOrganization();
      const res = await t.post(
        `/api/v2/organizations/${org}/${TYPE}`,
        body({
          name: 'sealed',
          'destination-type': 'generic',
          url: 'https://hooks.example.com/x',
          token: 'marker-token-at-rest',
        }),
      );
      expectStatus(res, 201);
      const [row] = await t.store.db
        .selectFrom('varset_notification_configurations')
        .select('token')
        .where('id', '=', res.body.data.id)
        .execute();
      assert.match(row!.token!, /^v2:/);
      assert.equal(t.app.sealer.open(row!.token!), 'marker-token-at-rest');
      const next = createKeyring([keyringKey(generateKey())]);
      assert.equal((await resealValues(t.store, createKeyring([...next.keys, ...t.app.sealer.keys]))).resealed, 1);
      const [rotated] = await t.store.db
        .selectFrom('varset_notification_configurations')
        .select('token')
        .where('id', '=', res.body.data.id)
        .execute();
      assert.equal(next.open(rotated!.token!), 'marker-token-at-rest');
    } finally {
      await t.close();
    }
  });
});
