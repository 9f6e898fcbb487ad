import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseMetrics, samples, total, type Family } from './support/metrics.js';
import {
  eventually,
  requestOnOwnConnection,
  startServerProcess,
  varsetdEnv,
  workerPids,
  type ServerProcess,
} from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind } from './support/store.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function scrape(server: ServerProcess): Promise<Family[]> {
  const res = await requestOnOwnConnection(server.url, 'GET', '/metrics', {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  assert.equal(res.status, 200, res.text);
  return parseMetrics(res.text);
}

describe(`GET /metrics over two workers (${storeKind})`, () => {
  it('sums the requests every worker answered, says which answered, and counts a replaced worker', async () => {
    const store = await createTestStore();
    const server = await startServerProcess(
      varsetdEnv(store, {
        VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
        VARSETD_WORKERS: '2',
        VARSETD_METRICS_TOKEN: METRICS_TOKEN,
        LOG_LEVEL: 'info',
      }),
    );
    try {
      const N = 24;
      const created = await requestOnOwnConnection(server.url, 'POST', '/api/v2/organizations', {
        headers: admin,
        body: { data: { type: 'organizations', attributes: { name: 'metered', email: 'ops@example.com' } } },
      });
      assert.equal(created.status, 201, created.text);
      const sent = await Promise.all([
        ...Array.from({ length: N }, () =>
          requestOnOwnConnection(server.url, 'GET', '/api/v2/organizations/metered', { headers: admin }),
        ),
        ...Array.from({ length: N }, (_, i) =>
          requestOnOwnConnection(server.url, 'GET', `/api/v2/organizations/missing-${i}`, { headers: admin }),
        ),
        ...Array.from({ length: N }, () =>
          requestOnOwnConnection(server.url, 'GET', '/api/v2/organizations', { headers: {} }),
        ),
      ]);
      assert.deepEqual(
        sent.map((r) => r.status),
        [...Array(N).fill(200), ...Array(N).fill(404), ...Array(N).fill(401)],
      );
      // Every worker may be asked; without the token, none answers.
      for (let i = 0; i < 4; i++)
        assert.equal((await requestOnOwnConnection(server.url, 'GET', '/metrics', { headers: {} })).status, 401);

      const families = await scrape(server);
      const requests = (route: string, method: string, status: string) =>
        total(families, 'varsetd_http_requests_total', { route, method, status });
      assert.equal(requests('/api/v2/organizations', 'POST', '201'), 1);
      assert.equal(requests('/api/v2/organizations/:name', 'GET', '200'), N);
      assert.equal(requests('/api/v2/organizations/:name', 'GET', '404'), N);
      assert.equal(requests('/api/v2/organizations', 'GET', '401'), N);
      assert.equal(requests('/metrics', 'GET', '401'), 4);
      assert.equal(total(families, 'varsetd_auth_failures_total'), N + 4);
      assert.equal(
        total(families, 'varsetd_http_request_duration_seconds_count', {
          route: '/api/v2/organizations/:name',
          method: 'GET',
        }),
        2 * N,
      );

      // Both workers answered the scrape, and both served a share of the requests.
      assert.equal(total(families, 'varsetd_workers_reporting'), 2);
      const perWorker = samples(families, 'varsetd_worker_http_requests_total');
      assert.equal(perWorker.length, 2, JSON.stringify(perWorker));
      for (const worker of perWorker) assert.ok(worker.value > 0, `worker ${worker.labels.worker} answered no request`);
      assert.equal(total(families, 'varsetd_worker_http_requests_total'), 1 + 3 * N + 4);

      // What every process has once is shown once, not summed.
      assert.deepEqual(
        samples(families, 'varsetd_build_info').map((s) => s.value),
        [1],
      );
      assert.equal(total(families, 'varsetd_workers'), 2);
      assert.equal(total(families, 'varsetd_workers_desired'), 2);
      assert.equal(total(families, 'varsetd_worker_restarts_total'), 0);
      if (storeKind === 'postgres')
        assert.equal(total(families, 'varsetd_db_pool_max_clients'), 20, 'each worker has a pool of its own');

      // A killed worker is replaced: the primary counts it, and the scrape holds the new one.
      const [victim] = workerPids(server);
      process.kill(victim!, 'SIGKILL');
      const after = await eventually(
        'the killed worker was not replaced',
        async () => {
          const now = await scrape(server);
          return total(now, 'varsetd_worker_restarts_total') === 1 && total(now, 'varsetd_workers_reporting') === 2
            ? now
            : undefined;
        },
        server.output,
      );
      assert.equal(total(after, 'varsetd_worker_exits_total'), 1);
      assert.equal(total(after, 'varsetd_workers'), 2);
      const workersBefore = perWorker.map((s) => s.labels.worker);
      const workersAfter = samples(after, 'varsetd_worker_http_requests_total').map((s) => s.labels.worker);
      assert.equal(workersAfter.length, 2);
      assert.equal(workersAfter.filter((worker) => workersBefore.includes(worker)).length, 1, 'one worker is new');
    } finally {
      await server.stop();
      await store.dispose();
    }
  });
});
