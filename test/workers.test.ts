import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { replacementPause } from '../src/workers.js';
import { ADMIN_TOKEN, createTestStore, storeKind } from './helpers.js';
import { eventually, logPids, startServerProcess, varsetdEnv, type ServerProcess } from './server-process.js';

/** The worker processes of a primary, from /proc. */
function workerPids(server: ServerProcess): number[] {
  const text = fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A request on a connection of its own, so that the workers take turns answering (round-robin by connection). */
function request(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(`${url}${path}`, {
      method,
      agent: false,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/vnd.api+json', ...(text ? { 'content-length': Buffer.byteLength(text) } : {}) },
    });
    req.on('response', (res) => {
      let data = '';
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: data ? JSON.parse(data) : undefined }));
    });
    req.on('error', reject);
    // A connection the primary was handing to a worker as it was killed is never answered.
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    req.end(text);
  });
}

const organization = (name: string) => ({ data: { type: 'organizations', attributes: { name, email: 'ops@example.com' } } });

describe(`varsetd serve with several workers (${storeKind})`, () => {
  it('waits longer before replacing a worker after each quick death, up to 30 s', () => {
    assert.deepEqual([0, 1, 2, 3, 8, 20].map(replacementPause), [0, 250, 500, 1000, 30_000, 30_000]);
  });

  it('serves from every worker, replaces a killed one, and drains all of them on SIGTERM', async () => {
    const store = await createTestStore();
    const server = await startServerProcess(varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_WORKERS: '2', LOG_LEVEL: 'info' }));
    try {
      assert.equal(server.summary.workers, 2);
      const first = workerPids(server);
      assert.equal(first.length, 2, server.output());

      // Each worker serves, and every one of them sees what another wrote.
      const created = await request(server.url, 'POST', '/api/v2/organizations', organization('shared-by-workers'));
      assert.equal(created.status, 201);
      const reads = await Promise.all(Array.from({ length: 12 }, () => request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')));
      assert.deepEqual(reads.map((r) => r.status), Array(12).fill(200));
      await eventually('not every worker answered', async () => (logPids(server.output(), 'request completed').size === 2 ? true : undefined), server.output);
      assert.deepEqual([...logPids(server.output(), 'request completed')].sort(), [...first].sort());

      // A worker killed without warning is replaced; the other serves meanwhile.
      process.kill(first[0]!, 'SIGKILL');
      await eventually('the other worker did not serve', async () => ((await request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')).status === 200 ? true : undefined), server.output);
      const replaced = await eventually(
        'the killed worker was not replaced',
        async () => {
          const now = workerPids(server);
          return now.length === 2 && !now.includes(first[0]!) && server.output().split('"msg":"worker listening"').length === 4 ? now : undefined;
        },
        server.output,
      );
      assert.ok(replaced.includes(first[1]!));
      assert.match(server.output(), /"signal":"SIGKILL".*"msg":"a worker died: starting another"/);
      await eventually(
        'the new worker did not serve',
        async () => {
          await Promise.all(Array.from({ length: 4 }, () => request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')));
          return logPids(server.output(), 'request completed').size === 3 ? true : undefined;
        },
        server.output,
      );

      // SIGTERM: a request under way when it arrives is answered, then every worker and the primary exit.
      const slow = slowRequest(server.url, organization('created-while-draining'));
      await slow.started;
      server.sendSignal('SIGTERM');
      await eventually('the workers were not told to stop', async () => (logPids(server.output(), 'shutting down: finishing in-flight requests').size === 2 ? true : undefined), server.output);
      assert.equal(server.isRunning(), true, 'the primary exited before its workers finished');
      slow.finish();
      assert.equal((await slow.response).status, 201);
      assert.deepEqual(await server.exited, { code: 0, signal: null });
      for (const pid of replaced) assert.equal(alive(pid), false, `worker ${pid} outlived its primary`);
    } finally {
      await server.stop();
      await store.dispose();
    }
  });
});

/** A create whose body arrives in two parts: `finish` sends the second. */
function slowRequest(url: string, body: unknown) {
  const text = JSON.stringify(body);
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const req = http.request(`${url}/api/v2/organizations`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(text) },
  });
  const response = new Promise<{ status: number }>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode! }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  req.write(text.slice(0, 10), () => setTimeout(started, 200));
  return { started: startedPromise, finish: () => req.end(text.slice(10)), response };
}
