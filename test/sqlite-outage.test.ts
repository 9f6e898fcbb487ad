import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { isStoreUnavailable, migrate, openStore, sqliteFile } from '../src/db/connect.js';
import { sqliteModule } from '../src/db/sqlite-module.js';
import {
  assertOnlySuccessOr503,
  call,
  createSetBody,
  logLines,
  RECOVERED_LOG,
  UNAVAILABLE_LOG,
  type Outcome,
} from './support/outage-load.js';
import { eventually, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';

/**
 * SQLite stores that cannot serve. Another process holding the write lock longer than
 * varsetd's busy_timeout (5 s): the write that waited answers 503 with Retry-After, /readyz
 * says the store is down until the lock is gone, and varsetd serves writes again by itself.
 */
describe('SQLite stores that cannot serve', () => {
  let dataDir: string;
  let server: ServerProcess;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-sqlite-outage-'));
    server = await startServerProcess(
      varsetdEnv({ dataDir, databaseUrl: undefined }, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN }),
    );
  });

  after(async () => {
    await (server as ServerProcess | undefined)?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a write that waited past busy_timeout for another process 503, is not ready until the lock is gone, then writes again', async () => {
    const base = server.url;
    const name = `org-${Math.random().toString(36).slice(2, 10)}`;
    assert.equal(
      (
        await call(base, 'POST', '/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } },
        })
      ).status,
      201,
    );
    const outcomes: Outcome[] = [];
    const create = async (set: string) => {
      const outcome = {
        kind: 'create' as const,
        name: set,
        at: Date.now(),
        ...(await call(base, 'POST', `/api/v2/organizations/${name}/varsets`, createSetBody(set))),
      };
      outcomes.push(outcome);
      return outcome;
    };

    const locker = new (sqliteModule().Database)(sqliteFile(dataDir));
    try {
      locker.exec('begin exclusive');
      const refusedWrite = await create('while-locked');
      assert.equal(refusedWrite.status, 503, JSON.stringify(refusedWrite));
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: 'unavailable', checks: { store: 'down' } });
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
    } finally {
      locker.exec('rollback');
      locker.close();
    }

    await eventually(
      '/readyz answers 200 again',
      async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined),
      server.output,
    );
    assert.equal((await create('after-the-lock')).status, 200);
    assertOnlySuccessOr503(outcomes, 15_000);
    const sets = await call(base, 'GET', `/api/v2/organizations/${name}/varsets`);
    assert.deepEqual(
      sets.body.data.map((set: any) => set.attributes.name),
      ['after-the-lock'],
    );
    assert.equal(logLines(server.output(), UNAVAILABLE_LOG).length, 1);
    assert.deepEqual(
      logLines(server.output(), RECOVERED_LOG).map((line) => line.refusedRequests),
      [1],
    );
  });

  it('recognises a database that accepts no writes, and one locked by another process', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-sqlite-read-only-'));
    const store = await openStore({ dataDir: folder });
    try {
      await migrate(store);
      await sql`pragma query_only = 1`.execute(store.db);
      const refusedWrite = await sql`create table read_only_check (id integer)`.execute(store.db).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.match(String((refusedWrite as { code?: unknown }).code), /^SQLITE_READONLY/, String(refusedWrite));
      assert.equal(isStoreUnavailable(refusedWrite), true);
      await assert.rejects(store.probe(), (error: unknown) => isStoreUnavailable(error));
      await sql`pragma query_only = 0`.execute(store.db);
      await store.probe();

      const locker = new (sqliteModule().Database)(sqliteFile(folder));
      try {
        locker.exec('begin exclusive');
        // The probe waits for the lock only briefly (250 ms), far less than the 5 s a request waits.
        const started = Date.now();
        await assert.rejects(store.probe(), (error: unknown) => isStoreUnavailable(error));
        assert.ok(Date.now() - started < 1000, `the probe waited ${Date.now() - started} ms`);
      } finally {
        locker.exec('rollback');
        locker.close();
      }
      await store.probe();
    } finally {
      await store.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
