import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** No token, sensitive value or Authorization header ever reaches a log line or an error body. */
describe(`secrets in logs and errors (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;
  let app: FastifyInstance;
  const lines: string[] = [];

  before(async () => {
    testStore = await createTestStore();
    store = await openStore(testStore);
    await migrate(store);
    await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ store, logger: { level: 'trace', stream } });
  });
  after(async () => {
    await app.close();
    await store.close().catch(() => {});
    await testStore.dispose();
  });

  const request = (method: string, url: string, payload?: unknown, token = ADMIN_TOKEN) =>
    app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });

  it('logs requests without their credentials, issued tokens or sensitive values', async () => {
    const bodies: string[] = [];
    const send = async (...args: Parameters<typeof request>) => {
      const res = await request(...args);
      bodies.push(res.body);
      return res;
    };
    await send('POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'logs', email: 'l@example.com' } },
    });
    const team = await send('POST', '/api/v2/organizations/logs/teams', {
      data: { type: 'teams', attributes: { name: 'ops' } },
    });
    const teamId = JSON.parse(team.body).data.id;
    const issued = await request('POST', `/api/v2/teams/${teamId}/authentication-token`);
    const teamSecret: string = JSON.parse(issued.body).data.attributes.token;
    const orgIssued = await request('POST', '/api/v2/organizations/logs/authentication-token');
    const orgSecret: string = JSON.parse(orgIssued.body).data.attributes.token;
    const sensitive = 'sensitive-value-4b1d';
    await send('POST', '/api/v2/organizations/logs/varsets', {
      data: {
        type: 'varsets',
        attributes: { name: 'set' },
        relationships: {
          vars: {
            data: [{ type: 'vars', attributes: { key: 'pw', value: sensitive, category: 'env', sensitive: true } }],
          },
        },
      },
    });
    // Errors of every kind, carrying secrets in their requests.
    await send('GET', '/api/v2/organizations/logs', undefined, teamSecret);
    await send('GET', '/api/v2/organizations', undefined, 'wrong-token-secret-77');
    await send('POST', '/api/v2/organizations/logs/varsets', `{"data": {"attributes": {"value": "${sensitive}"`);
    await send('POST', '/api/v2/organizations/logs/varsets', {
      data: { type: 'varsets', attributes: { name: 7, value: sensitive } },
    });
    await send('GET', '/api/v2/organizations/logs/varsets?page%5Bsize%5D=many', undefined, orgSecret);
    // An unexpected failure: the store is gone.
    await store.close();
    const failed = await send('GET', '/api/v2/organizations/logs', undefined, orgSecret);
    assert.equal(failed.statusCode, 500);
    assert.deepEqual(JSON.parse(failed.body), { errors: [{ status: '500', title: 'internal server error' }] });

    const log = lines.join('');
    assert.ok(lines.length > 10, 'requests were logged');
    assert.match(log, /request failed/);
    for (const secret of [ADMIN_TOKEN, teamSecret, orgSecret, 'wrong-token-secret-77', sensitive]) {
      assert.ok(!log.includes(secret), `the log shows ${secret.slice(0, 12)}…`);
    }
    assert.ok(!/bearer/i.test(log), 'the log shows an Authorization header');
    for (const body of bodies) {
      for (const secret of [ADMIN_TOKEN, teamSecret, 'wrong-token-secret-77', sensitive])
        assert.ok(!body.includes(secret), body);
    }
  });
});
