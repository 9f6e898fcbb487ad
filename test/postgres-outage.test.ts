import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { isStoreUnavailable, migrate, openStore } from '../src/db/connect.js';
import {
  assertNoHalfAppliedCreate,
  assertOnlySuccessOr503,
  call,
  createSetBody,
  logLines,
  RECOVERED_LOG,
  refused,
  SteadyLoad,
  succeeded,
  UNAVAILABLE_LOG,
} from './support/outage-load.js';
import { PostgresCluster } from './support/postgres-cluster.js';
import { startServerProcess, varsetdEnv, eventually, type ServerProcess } from './support/processes.js';
import { createOrganization } from './support/factories/organizations.js';
import { ADMIN_TOKEN, httpClient } from './support/requests.js';

/**
 * PostgreSQL going away under load and coming back, on a cluster of this test's own (so it
 * runs in the SQLite part of the suite too): requests get 503 with Retry-After, never a 500
 * or a hang; /readyz says so; no write is half-applied; varsetd serves again by itself.
 */

/** What a varset creation's request waits at most for a connection while the database is down. */
const CONNECT_TIMEOUT_S = 2;

describe('a PostgreSQL outage, on a cluster of its own', () => {
  let cluster: PostgresCluster;
  let dataDir: string;

  before(async () => {
    cluster = await PostgresCluster.create();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-outage-'));
  });

  after(async () => {
    await (cluster as PostgresCluster | undefined)?.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const env = () =>
    varsetdEnv(
      { dataDir, databaseUrl: cluster.url },
      { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_DB_CONNECT_TIMEOUT: String(CONNECT_TIMEOUT_S) },
    );

  async function health(
    base: string,
    route: '/healthz' | '/readyz',
  ): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
    const res = await fetch(base + route, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
  }

  it('answers 503 with Retry-After through two outages, logs each once, recovers without a restart and half-applies no write', async (t) => {
    const server = await startServerProcess(env());
    try {
      const base = server.url;
      const organization = await createOrganization(httpClient(base));
      assert.deepEqual(await health(base, '/readyz'), { status: 200, retryAfter: null, body: { status: 'ok' } });
      const load = new SteadyLoad(base, organization);
      try {
        for (const [outage, mode] of [
          [1, 'fast'],
          [2, 'immediate'],
        ] as const) {
          await load.until('successful requests before the outage', succeeded, 30, Date.now());
          await cluster.stop(mode);
          const down = Date.now();
          await load.until(`requests refused during outage ${outage}`, refused, 20, down);
          assert.equal(
            load.count((outcome) => outcome.kind === 'create' && refused(outcome), down) > 0,
            true,
            'writes are refused too',
          );
          const ready = await health(base, '/readyz');
          assert.equal(ready.status, 503);
          assert.match(ready.retryAfter ?? '', /^\d+$/);
          assert.deepEqual(ready.body, { status: 'unavailable', checks: { store: 'down' } });
          assert.deepEqual(await health(base, '/healthz'), { status: 200, retryAfter: null, body: { status: 'ok' } });

          await cluster.start();
          const up = Date.now();
          await load.until(
            `writes served after outage ${outage}`,
            (outcome) => outcome.kind === 'create' && succeeded(outcome),
            5,
            up,
          );
          await eventually(
            '/readyz answers 200 again',
            async () => ((await health(base, '/readyz')).status === 200 ? true : undefined),
            server.output,
          );
          // Each outage: one error line when it began, one info line once the store answered again.
          await eventually(
            'the recovery is logged',
            async () => (logLines(server.output(), RECOVERED_LOG).length === outage ? true : undefined),
            server.output,
          );
          assert.equal(logLines(server.output(), UNAVAILABLE_LOG).length, outage, server.output());
        }
      } finally {
        await load.stop();
      }
      assert.ok(server.isRunning(), 'varsetd was never restarted');
      // Nothing waits for a connection longer than the connect timeout, and the rest is quick.
      assertOnlySuccessOr503(load.outcomes, CONNECT_TIMEOUT_S * 1000 + 3000);
      assert.equal(
        load.count((outcome) => outcome.status >= 500 && outcome.status !== 503),
        0,
      );
      const sets = await assertNoHalfAppliedCreate(base, organization, load.outcomes);
      assert.ok(sets >= 10, `${sets} sets were created`);

      const recoveries = logLines(server.output(), RECOVERED_LOG);
      const refusedInAll = recoveries.reduce((sum: number, line) => sum + Number(line.refusedRequests), 0);
      // A request is counted in the outage it was refused in; /readyz is not a refused request.
      assert.ok(
        refusedInAll > 0 && refusedInAll <= load.count(refused),
        `logged ${refusedInAll} refused, the load saw ${load.count(refused)}`,
      );
      assert.equal(logLines(server.output(), 'request failed').length, 0, 'no request failed as an error of varsetd');
      const slowest = Math.max(...load.outcomes.map((outcome) => outcome.ms));
      t.diagnostic(
        `${load.outcomes.length} requests: ${load.count(succeeded)} 2xx, ${load.count(refused)} 503 (${refusedInAll} logged); slowest ${slowest} ms; ${sets} sets`,
      );
    } finally {
      await server.stop();
      // Running again for the other tests, should this one have failed during an outage.
      await cluster.start().catch(() => {});
    }
  });

  it('keeps no write of a transaction whose connection is lost, and discards the connection', async () => {
    const store = await openStore({ databaseUrl: cluster.url, dataDir, dbPoolSize: 1 });
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      await sql`create table if not exists lost_writes (id int)`.execute(store.db);
      const lost = await store.db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into lost_writes values (1)`.execute(trx);
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
          await sql`insert into lost_writes values (2)`.execute(trx);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      assert.ok(lost instanceof Error, 'the transaction failed');
      assert.equal(isStoreUnavailable(lost), true, String(lost));
      // The one pooled connection was the lost one: a query answering means it was replaced.
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from lost_writes`.execute(store.db);
      assert.deepEqual(rows, [{ count: 0 }]);
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it('cancels a statement past the statement timeout, which answers 503', async () => {
    const store = await openStore({ databaseUrl: cluster.url, dataDir, dbStatementTimeoutMs: 100 });
    try {
      await migrate(store);
      const timedOut = await sql`select pg_sleep(10)`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.equal((timedOut as { code?: unknown }).code, '57014', String(timedOut));
      assert.equal(isStoreUnavailable(timedOut), true);
      const app = await buildApp({ store });
      app.get('/slow', async () => {
        await sql`select pg_sleep(10)`.execute(store.db);
        return {};
      });
      await app.ready();
      const started = Date.now();
      const res = await app.inject({ method: 'GET', url: '/slow' });
      assert.ok(Date.now() - started < 5000, 'the statement was cancelled, not waited for');
      assert.equal(res.statusCode, 503);
      assert.match(String(res.headers['retry-after']), /^\d+$/);
      assert.equal(res.json().errors[0].title, 'service unavailable');
      // The limit is per statement: quick ones on the same pool still run.
      assert.deepEqual((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows, [{ one: 1 }]);
      await app.close();
    } finally {
      await store.close();
    }
  });

  it('keeps at most the configured number of connections', async () => {
    const store = await openStore({ databaseUrl: cluster.url, dataDir, dbPoolSize: 2 });
    try {
      const pids = await Promise.all(
        Array.from(
          { length: 6 },
          async () =>
            (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`.execute(store.db)).rows[0]!.pid,
        ),
      );
      assert.equal(new Set(pids).size, 2);
    } finally {
      await store.close();
    }
  });

  it('answers a request that waits past the connect timeout for a pooled connection 503', async () => {
    const store = await openStore({ databaseUrl: cluster.url, dataDir, dbPoolSize: 1, dbConnectTimeoutMs: 200 });
    try {
      let release: (() => void) | undefined;
      const held = store.db.connection().execute(() => new Promise<void>((resolve) => (release = resolve)));
      await eventually(
        'the one connection is taken',
        async () => (release ? true : undefined),
        () => '',
      );
      const started = Date.now();
      const waited = await sql`select 1`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(Date.now() - started < 2000, `waited ${Date.now() - started} ms`);
      assert.equal(isStoreUnavailable(waited), true, String(waited));
      release!();
      await held;
    } finally {
      await store.close();
    }
  });

  it('recognises a database that accepts no writes, and does not call it answering again', async () => {
    const store = await openStore({ databaseUrl: cluster.url, dataDir, dbPoolSize: 1 });
    try {
      await sql`set default_transaction_read_only = on`.execute(store.db);
      const refusedWrite = await sql`create table read_only_check (id int)`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.equal((refusedWrite as { code?: unknown }).code, '25006', String(refusedWrite));
      assert.equal(isStoreUnavailable(refusedWrite), true);
      await assert.rejects(store.probe(), (error: unknown) => isStoreUnavailable(error));
      await sql`set default_transaction_read_only = off`.execute(store.db);
      await store.probe();
    } finally {
      await store.close();
    }
  });

  it('is not ready while it drains on SIGTERM, accepts no new connection, and finishes the requests in flight', async () => {
    const server: ServerProcess = await startServerProcess(env());
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    try {
      const base = server.url;
      const organization = await createOrganization(httpClient(base));
      // Holding the organization's row lock keeps a write to it waiting: a slow request.
      await admin.query('begin');
      await admin.query('select id from organizations where name = $1 for update', [organization]);
      const slowWrite = call(
        base,
        'POST',
        `/api/v2/organizations/${organization}/varsets`,
        createSetBody('written-while-draining'),
      );
      await eventually(
        'the write waits for the lock',
        async () =>
          (await admin.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'")).rows[0]
            .n > 0
            ? true
            : undefined,
        server.output,
      );
      // A connection whose request is on its way when the shutdown begins is not idle: it gets an answer.
      const readyz = await partialRequest(base, 'GET /readyz HTTP/1.1\r\nHost: varsetd\r\n');
      const api = await partialRequest(
        base,
        `GET /api/v2/organizations/${organization} HTTP/1.1\r\nHost: varsetd\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n`,
      );
      // Until the server has read those bytes the connections look idle, and closing ends idle ones.
      await new Promise((resolve) => setTimeout(resolve, 500));
      server.sendSignal('SIGTERM');
      await eventually(
        'the shutdown begins',
        async () => (server.output().includes('shutting down') ? true : undefined),
        server.output,
      );

      const readyAnswer = await readyz.finish();
      assert.equal(readyAnswer.status, 503, readyAnswer.raw);
      assert.match(readyAnswer.raw, /\r\nretry-after: \d+\r\n/i);
      assert.deepEqual(JSON.parse(readyAnswer.body), { status: 'unavailable', checks: { process: 'draining' } });
      // A request on a connection accepted before the drain is answered, and its connection closed after it.
      const apiAnswer = await api.finish();
      assert.equal(apiAnswer.status, 200, apiAnswer.raw);
      assert.match(apiAnswer.raw, /\r\nconnection: close\r\n/i);
      // New connections are no longer accepted; one accepted before the socket closed is told it is not ready.
      for (let attempt = 1; ; attempt++) {
        const answer = await call(base, 'GET', '/readyz');
        if (answer.status === 0) break;
        assert.equal(answer.status, 503, JSON.stringify(answer));
        assert.ok(attempt < 50, 'the listening socket was not closed');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(server.isRunning(), 'it waits for the request in flight');

      await admin.query('commit');
      const written = await slowWrite;
      assert.equal(written.status, 200, JSON.stringify(written.body));
      assert.deepEqual(await server.exited, { code: 0, signal: null });
    } finally {
      await admin.query('rollback').catch(() => {});
      await admin.end();
      await server.stop();
    }
  });
});

/** Sends the start of a request on a connection of its own; `finish` ends its headers and reads the answer. */
async function partialRequest(
  base: string,
  start: string,
): Promise<{ finish(): Promise<{ status: number; raw: string; body: string }> }> {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let raw = '';
  socket.on('data', (chunk) => (raw += String(chunk)));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(start);
  return {
    async finish() {
      socket.write('\r\n');
      const deadline = setTimeout(() => socket.destroy(), 10_000);
      await ended;
      clearTimeout(deadline);
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), raw: head + '\r\n', body };
    },
  };
}
