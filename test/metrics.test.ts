import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openStore } from '../src/db/connect.js';
import { TestApp } from './support/app.js';
import { createVarset, postVarset } from './support/factories/varsets.js';
import { parseMetrics, samples, total, type Family } from './support/metrics.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { storeKind } from './support/store.js';

const METRICS_TOKEN = 'metrics-token-0123456789';

/** /metrics of an in-process app, read by the Prometheus parser. */
async function scrape(t: TestApp, authorization?: string): Promise<Family[]> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

describe(`GET /metrics (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  it('counts requests by route pattern, method and status, and times them', async () => {
    const org = await t.createOrganization();
    const before = await scrape(t);
    for (let i = 0; i < 3; i++) expectStatus(await t.get(`/api/v2/organizations/${org}`), 200);
    expectStatus(await t.get('/api/v2/organizations/no-such-organization'), 404);
    expectStatus(await t.request('DELETE', `/api/v2/organizations/${org}/nothing-here/at-all`), 404);
    // Refused by the router, before any route or hook.
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/v2/organizations/${'n'.repeat(2_000)}` })).statusCode,
      404,
    );
    assert.equal((await t.app.inject({ method: 'PATCH', url: '/api/v2/organizations/%E0%A4%A' })).statusCode, 400);
    const after = await scrape(t);
    const delta = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    assert.equal(
      delta('varsetd_http_requests_total', { route: '/api/v2/organizations/:name', method: 'GET', status: '200' }),
      3,
    );
    assert.equal(
      delta('varsetd_http_requests_total', { route: '/api/v2/organizations/:name', method: 'GET', status: '404' }),
      1,
    );
    assert.equal(delta('varsetd_http_requests_total', { route: 'unmatched', method: 'DELETE', status: '404' }), 1);
    assert.equal(delta('varsetd_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }), 1);
    assert.equal(delta('varsetd_http_requests_total', { route: 'unmatched', method: 'PATCH', status: '400' }), 1);
    assert.equal(
      delta('varsetd_http_request_duration_seconds_count', { route: '/api/v2/organizations/:name', method: 'GET' }),
      4,
    );
    const buckets = samples(after, 'varsetd_http_request_duration_seconds_bucket', {
      route: '/api/v2/organizations/:name',
      method: 'GET',
    });
    assert.deepEqual(
      buckets.map((b) => b.labels.le),
      ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '+Inf'],
    );
    assert.ok(!JSON.stringify(after).includes(org), 'no label names the organization');
  });

  it('exports build info and the process metrics', async () => {
    const families = await scrape(t);
    const [info] = samples(families, 'varsetd_build_info');
    assert.equal(info?.value, 1);
    assert.match(info.labels.version!, /^\d+\.\d+\.\d+/);
    assert.equal(info.labels.node_version, process.version);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.equal(samples(families, name).length, 1, name);
    }
  });

  it('counts 401s as authentication failures', async () => {
    const before = total(await scrape(t), 'varsetd_auth_failures_total');
    expectStatus(await t.get('/api/v2/organizations', { token: null }), 401);
    expectStatus(await t.get('/api/v2/organizations', { token: 'not-a-token' }), 401);
    expectStatus(await t.get('/api/v2/organizations'), 200);
    assert.equal(total(await scrape(t), 'varsetd_auth_failures_total') - before, 2);
  });

  it('counts the response cache: a miss renders, a hit serves what was kept', async () => {
    const org = await t.createOrganization();
    const set = await createVarset(t, org, { vars: [{ key: 'region' }] });
    const results = async () => {
      const families = await scrape(t);
      return Object.fromEntries(
        ['hit', 'miss', 'uncacheable'].map((result) => [
          result,
          total(families, 'varsetd_response_cache_requests_total', { result }),
        ]),
      );
    };
    const before = await results();
    for (let i = 0; i < 3; i++) expectStatus(await t.get(`/api/v2/varsets/${set.id}`), 200);
    const after = await results();
    assert.deepEqual({ hit: after.hit! - before.hit!, miss: after.miss! - before.miss! }, { hit: 2, miss: 1 });
    const families = await scrape(t);
    assert.ok(total(families, 'varsetd_response_cache_entries') >= 1);
    assert.ok(total(families, 'varsetd_response_cache_characters') > 100);
  });

  it('counts conflicts of the global rule, and no other 422', async () => {
    const org = await t.createOrganization();
    const conflicts = async () => total(await scrape(t), 'varsetd_global_rule_conflicts_total');
    const before = await conflicts();
    await createVarset(t, org, {
      attributes: { name: 'first', global: true },
      vars: [{ key: 'region', category: 'env' }],
    });
    expectStatus(
      await postVarset(t, org, {
        attributes: { name: 'second', global: true },
        vars: [{ key: 'region', category: 'env' }],
      }),
      422,
    );
    expectStatus(await postVarset(t, org, { attributes: { name: 'first' } }), 422);
    assert.equal((await conflicts()) - before, 1);
  });

  it('counts failed statements by a bounded kind, never their text', async () => {
    const kind = storeKind === 'postgres' ? 'sqlstate_42' : 'SQLITE_ERROR';
    const errors = async () => total(await scrape(t), 'varsetd_db_statement_errors_total', { kind });
    const before = await errors();
    await assert.rejects(sql`select * from no_such_table_here`.execute(t.store.db));
    const families = await scrape(t);
    assert.equal(total(families, 'varsetd_db_statement_errors_total', { kind }) - before, 1);
    assert.ok(!JSON.stringify(families).includes('no_such_table_here'));
  });

  it('counts a failure to reach PostgreSQL as a statement error of kind connect', async () => {
    const errors = async () => total(await scrape(t), 'varsetd_db_statement_errors_total', { kind: 'connect' });
    const before = await errors();
    const unreachable = await openStore({
      databaseUrl: 'postgres://varsetd@127.0.0.1:1/varsetd',
      dataDir: '/nonexistent',
    });
    try {
      await assert.rejects(sql`select 1`.execute(unreachable.db), /ECONNREFUSED/);
    } finally {
      await unreachable.close();
    }
    assert.equal((await errors()) - before, 1);
  });

  it(
    storeKind === 'postgres'
      ? 'shows the PostgreSQL pool: clients, idle ones, waiting requests and the most it opens'
      : 'has no pool gauges on SQLite',
    async () => {
      const families = await scrape(t);
      const gauges = [
        'varsetd_db_pool_clients',
        'varsetd_db_pool_idle_clients',
        'varsetd_db_pool_waiting_requests',
        'varsetd_db_pool_max_clients',
      ];
      if (storeKind !== 'postgres') {
        for (const name of gauges) assert.equal(samples(families, name).length, 0, name);
        return;
      }
      const value = (name: string) => samples(families, name)[0]?.value;
      assert.equal(value('varsetd_db_pool_max_clients'), 10);
      assert.ok(value('varsetd_db_pool_clients')! >= 1);
      assert.equal(
        value('varsetd_db_pool_idle_clients'),
        value('varsetd_db_pool_clients'),
        'nothing runs between requests',
      );
      assert.equal(value('varsetd_db_pool_waiting_requests'), 0);

      // Every client held: the next request waits, and the gauge shows it.
      const release: (() => void)[] = [];
      const busy = Array.from({ length: 10 }, () =>
        t.store.db.connection().execute(() => new Promise<void>((resolve) => release.push(resolve))),
      );
      while (release.length < 10) await new Promise((resolve) => setTimeout(resolve, 10));
      const waiting = t.get('/api/v2/organizations');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const full = await scrape(t);
      for (const resolve of release) resolve();
      await Promise.all(busy);
      expectStatus(await waiting, 200);
      assert.equal(samples(full, 'varsetd_db_pool_clients')[0]?.value, 10);
      assert.equal(samples(full, 'varsetd_db_pool_idle_clients')[0]?.value, 0);
      assert.ok(samples(full, 'varsetd_db_pool_waiting_requests')[0]!.value >= 1);
    },
  );
});

describe(`GET /metrics behind VARSETD_METRICS_TOKEN (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start({ metrics: { token: METRICS_TOKEN } });
  });
  after(async () => t.close());

  it('answers only the bearer of the token, with 401 otherwise', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN.slice(1)}`,
      `Bearer ${ADMIN_TOKEN}`,
      `Basic ${METRICS_TOKEN}`,
      METRICS_TOKEN,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      assert.equal(res.statusCode, 401, String(authorization));
      assert.equal(res.headers['www-authenticate'], 'Bearer');
    }
    const families = await scrape(t, `Bearer ${METRICS_TOKEN}`);
    assert.equal(total(families, 'varsetd_http_requests_total', { route: '/metrics', status: '401' }), 6);
    assert.equal(total(families, 'varsetd_auth_failures_total'), 6);
  });
});
