import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LONGEST_PAUSE_MS, replacementPause } from '../src/cli/supervisor.js';
import {
  workerPidsOf,
  eventually,
  freePort,
  logPids,
  requestOnOwnConnection,
  runVarsetd,
  startServerProcess,
  varsetdEnv,
  workerPids,
  type ServerProcess,
} from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind } from './support/store.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** An admin's request on a connection of its own, its JSON answer parsed. */
async function request(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 5_000,
): Promise<{ status: number; body: any }> {
  const res = await requestOnOwnConnection(url, method, path, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    body,
    timeoutMs,
  });
  return { status: res.status, body: res.text ? JSON.parse(res.text) : undefined };
}

const organization = (name: string) => ({
  data: { type: 'organizations', attributes: { name, email: 'ops@example.com' } },
});

describe(`varsetd serve with several workers (${storeKind})`, () => {
  it('waits longer before replacing a worker after each quick death, up to 4 s', () => {
    assert.equal(LONGEST_PAUSE_MS, 4_000);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 20, 1_000_000].map(replacementPause),
      [0, 250, 500, 1000, 2000, 4000, 4000, 4000, 4000],
    );
  });

  it('keeps serving when every worker is killed, and every replacement as soon as it answers, twice in a row', async (t) => {
    const store = await createTestStore();
    // A port of its own rather than 0: a port that changed when the workers were gone would not be the same server.
    const server = await startServerProcess(
      varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_WORKERS: '2', LOG_LEVEL: 'info' }),
      { port: await freePort() },
    );
    let load: Load | undefined;
    try {
      assert.equal(
        (await request(server.url, 'POST', '/api/v2/organizations', organization('survives-its-workers'))).status,
        201,
      );
      const read = '/api/v2/organizations/survives-its-workers';
      load = startLoad(server.url, read, 4);
      await eventually(
        'the load was not answered',
        async () => (load!.outcomes.some((o) => o.status === 200) ? true : undefined),
        server.output,
      );

      const killed = new Set<number>();
      const probeFailures: string[] = [];
      let serving = workerPids(server);
      for (const round of [1, 2, 3]) {
        for (const pid of serving) {
          process.kill(pid, 'SIGKILL');
          killed.add(pid);
        }
        const killedAt = Date.now();
        // A connection made now waits for a replacement (the primary keeps the port open): asked
        // again should it fail, so that a failure is told apart from a primary that is gone.
        let answer: { status: number } | undefined;
        while (!answer && Date.now() - killedAt < 60_000) {
          assert.equal(server.isRunning(), true, `round ${round}: the primary exited:\n${server.output()}`);
          answer = await request(server.url, 'GET', read, undefined, 60_000).catch((failure: unknown) => {
            const error = failure as NodeJS.ErrnoException;
            probeFailures.push(`round ${round}: ${error.code ?? error.message} after ${Date.now() - killedAt} ms`);
            return new Promise<undefined>((resolve) => setTimeout(resolve, 50));
          });
        }
        const answeredInMs = Date.now() - killedAt;
        assert.equal(answer?.status, 200);
        assert.equal(server.isRunning(), true, `round ${round}: the primary exited:\n${server.output()}`);
        // Within 5 s; a machine so loaded that a worker takes longer than 3 s to start gets that time on top.
        const started = listeningSince(server.output(), killedAt);
        const budget = 5_000 + Math.max(0, Math.min(...started.map((w) => w.startedInMs)) - 3_000);
        t.diagnostic(
          `round ${round}: answered ${answeredInMs} ms after the kill; replacements started in ${started.map((w) => w.startedInMs).join(', ')} ms`,
        );
        assert.ok(
          answeredInMs <= budget,
          `round ${round}: answered ${answeredInMs} ms after every worker was killed (budget ${budget} ms, replacements started in ${started.map((w) => w.startedInMs).join(', ')} ms):\n${server.output()}`,
        );
        // The next round kills both replacements as soon as they both answer.
        serving = await eventually(
          `round ${round}: the replacements did not both serve`,
          async () => {
            const up = listeningSince(server.output(), killedAt)
              .map((w) => w.workerPid)
              .filter((pid) => !killed.has(pid));
            const now = workerPids(server);
            return up.length === 2 && up.every((pid) => now.includes(pid)) ? up : undefined;
          },
          server.output,
        );
      }
      // Not one of those connections made while no worker was left was refused, reset or left unanswered.
      assert.deepEqual(probeFailures, []);
      // Every death was followed by a replacement, after at most a second's pause (three quick deaths of each of the two).
      const deaths = logEntries(server.output()).filter((e) => e.msg === 'a worker died: starting another');
      assert.equal(deaths.length, 6, server.output());
      assert.ok(
        deaths.every((e) => e.signal === 'SIGKILL' && e.replacingInMs <= 1_000),
        JSON.stringify(deaths),
      );

      // Still the same primary, serving from two new workers.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(server.isRunning(), true, 'the primary exited');
      assert.equal(workerPids(server).length, 2);
      const reads = await Promise.all(Array.from({ length: 6 }, () => request(server.url, 'GET', read)));
      assert.deepEqual(
        reads.map((r) => r.status),
        Array(6).fill(200),
      );

      // Under load, no connection was refused or left unanswered: each was answered, or closed by
      // the worker that had taken it as that worker was killed.
      const outcomes = await load.stop();
      const failed = outcomes.filter((o) => o.status !== 200);
      t.diagnostic(
        `load: ${outcomes.length - failed.length} reads answered, ${failed.length} failed (${failed.map((o) => o.error).join(', ')})`,
      );
      assert.ok(outcomes.length - failed.length >= 20, `only ${outcomes.length - failed.length} reads answered`);
      assert.deepEqual(
        failed.filter((o) => o.error !== 'ECONNRESET' && o.error !== 'EPIPE'),
        [],
        server.output(),
      );
      // Each of the 4 clients has one connection open at a time: at most 4 are lost per round.
      assert.ok(failed.length <= 4 * 3, `${failed.length} reads failed: ${JSON.stringify(failed)}`);

      // It exits, with 0, on SIGTERM only, once its workers are done.
      await drainsOnSigterm(server, 'created-after-the-kills');
    } finally {
      await load?.stop();
      await server.stop();
      await store.dispose();
    }
  });

  it('exits non-zero, with one line naming the store, when the store cannot be opened', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-unusable-'));
    try {
      const closedPort = await freePort();
      const settings = { VARSETD_WORKERS: '2', HOST: '127.0.0.1', PORT: '0' };
      const postgres = await runVarsetd(
        ['serve'],
        varsetdEnv(
          { dataDir: path.join(dir, 'data'), databaseUrl: `postgres://varsetd:s3cret@127.0.0.1:${closedPort}/varsetd` },
          settings,
        ),
      );
      assert.equal(postgres.code, 1, postgres.stdout + postgres.stderr);
      assert.equal(postgres.stdout, '');
      assert.match(
        postgres.stderr,
        new RegExp(
          `^varsetd: failed to start: cannot open PostgreSQL at 127\\.0\\.0\\.1:${closedPort}/varsetd \\(DATABASE_URL\\): connect ECONNREFUSED 127\\.0\\.0\\.1:${closedPort}\n$`,
        ),
      );
      assert.doesNotMatch(postgres.stderr, /s3cret/);

      // A data folder that cannot be made: its parent is a file.
      fs.writeFileSync(path.join(dir, 'a-file'), '');
      const dataDir = path.join(dir, 'a-file', 'data');
      const sqlite = await runVarsetd(['serve'], varsetdEnv({ dataDir, databaseUrl: undefined }, settings));
      assert.equal(sqlite.code, 1, sqlite.stdout + sqlite.stderr);
      assert.equal(sqlite.stdout, '');
      assert.equal(
        sqlite.stderr,
        `varsetd: failed to start: cannot open the SQLite store in ${dataDir} (VARSETD_DATA_DIR): ENOTDIR: not a directory, mkdir '${dataDir}'\n`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves from every worker, replaces a killed one, and drains all of them on SIGTERM', async () => {
    const store = await createTestStore();
    const server = await startServerProcess(
      varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_WORKERS: '2', LOG_LEVEL: 'info' }),
    );
    try {
      assert.equal(server.summary.workers, 2);
      const first = workerPids(server);
      assert.equal(first.length, 2, server.output());

      // Each worker serves, and every one of them sees what another wrote.
      const created = await request(server.url, 'POST', '/api/v2/organizations', organization('shared-by-workers'));
      assert.equal(created.status, 201);
      const reads = await Promise.all(
        Array.from({ length: 12 }, () => request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')),
      );
      assert.deepEqual(
        reads.map((r) => r.status),
        Array(12).fill(200),
      );
      await eventually(
        'not every worker answered',
        async () => (logPids(server.output(), 'request completed').size === 2 ? true : undefined),
        server.output,
      );
      assert.deepEqual([...logPids(server.output(), 'request completed')].sort(), [...first].sort());

      // A worker killed without warning is replaced; the other serves meanwhile.
      process.kill(first[0]!, 'SIGKILL');
      await eventually(
        'the other worker did not serve',
        async () =>
          (await request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')).status === 200
            ? true
            : undefined,
        server.output,
      );
      const replaced = await eventually(
        'the killed worker was not replaced',
        async () => {
          const now = workerPids(server);
          return now.length === 2 &&
            !now.includes(first[0]!) &&
            server.output().split('"msg":"worker listening"').length === 4
            ? now
            : undefined;
        },
        server.output,
      );
      assert.ok(replaced.includes(first[1]!));
      assert.match(server.output(), /"signal":"SIGKILL".*"msg":"a worker died: starting another"/);
      await eventually(
        'the new worker did not serve',
        async () => {
          await Promise.all(
            Array.from({ length: 4 }, () => request(server.url, 'GET', '/api/v2/organizations/shared-by-workers')),
          );
          return logPids(server.output(), 'request completed').size === 3 ? true : undefined;
        },
        server.output,
      );

      // SIGTERM: a request under way when it arrives is answered, then every worker and the primary exit.
      await drainsOnSigterm(server, 'created-while-draining');
      for (const pid of replaced) assert.equal(alive(pid), false, `worker ${pid} outlived its primary`);
    } finally {
      await server.stop();
      await store.dispose();
    }
  });

  it('once a worker serves, replaces a worker killed while still starting instead of failing the start', async () => {
    const store = await createTestStore();
    let held: number | undefined;
    const server = await startServerProcess(
      varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_WORKERS: '2', LOG_LEVEL: 'info' }),
      {
        // One worker is held back (stopped) as soon as it is forked, and killed once the other serves.
        whileStarting: async (pid, output) => {
          const forked = await eventually(
            'the workers were not forked',
            async () => (workerPidsOf(pid).length === 2 ? workerPidsOf(pid) : undefined),
            output,
            5,
          );
          held = forked[1]!;
          process.kill(held, 'SIGSTOP');
          await eventually(
            'no worker served',
            async () => (output().includes('"msg":"worker listening"') ? true : undefined),
            output,
          );
          process.kill(held, 'SIGKILL');
        },
      },
    ).catch(async (error: unknown) => {
      // A stopped worker would outlive its primary and hold this test's output open.
      if (held !== undefined && alive(held)) process.kill(held, 'SIGKILL');
      await store.dispose();
      throw error;
    });
    try {
      assert.ok(held !== undefined);
      assert.equal(alive(held), false, 'the held worker is still there');
      const deaths = logEntries(server.output()).filter((e) => e.msg === 'a worker died: starting another');
      assert.deepEqual(
        deaths.map((e) => [e.workerPid, e.signal]),
        [[held, 'SIGKILL']],
        server.output(),
      );
      assert.equal(server.summary.workers, 2);
      await eventually(
        'the replacement did not serve',
        async () => (listeningSince(server.output(), 0).length === 2 ? true : undefined),
        server.output,
      );
      const now = workerPids(server);
      assert.equal(now.length, 2, server.output());
      assert.ok(!now.includes(held));
      assert.equal(
        (await request(server.url, 'POST', '/api/v2/organizations', organization('outlived-a-start'))).status,
        201,
      );
      await drainsOnSigterm(server, 'created-after-a-start');
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
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      'content-type': 'application/vnd.api+json',
      'content-length': Buffer.byteLength(text),
    },
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

/** The JSON log lines of a server's output (stderr may be interleaved with them). */
function logEntries(output: string): Array<Record<string, any>> {
  const entries = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      // A line cut by another process's output.
    }
  }
  return entries;
}

/** The workers that began serving at or after `since` (ms since the epoch), as their primary logged them. */
function listeningSince(output: string, since: number): Array<{ workerPid: number; startedInMs: number }> {
  return logEntries(output).filter((e) => e.msg === 'worker listening' && e.time >= since) as Array<{
    workerPid: number;
    startedInMs: number;
  }>;
}

interface Outcome {
  status?: number;
  error?: string;
}

interface Load {
  outcomes: Outcome[];
  stop(): Promise<Outcome[]>;
}

/** `clients` loops of reads, each on a connection of its own, until stopped; a read unanswered for 20 s counts as never answered. */
function startLoad(url: string, path: string, clients: number): Load {
  const outcomes: Outcome[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      try {
        outcomes.push({ status: (await request(url, 'GET', path, undefined, 20_000)).status });
      } catch (error) {
        const failure = error as NodeJS.ErrnoException;
        outcomes.push({ error: failure.code ?? failure.message });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const loops = Array.from({ length: clients }, loop);
  return {
    outcomes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** SIGTERM with a request under way: both workers are told to stop, the request is answered, and the primary exits 0 after them. */
async function drainsOnSigterm(server: ServerProcess, organizationName: string): Promise<void> {
  const slow = slowRequest(server.url, organization(organizationName));
  await slow.started;
  server.sendSignal('SIGTERM');
  await eventually(
    'the workers were not told to stop',
    async () => (logPids(server.output(), 'shutting down: finishing in-flight requests').size === 2 ? true : undefined),
    server.output,
  );
  assert.equal(server.isRunning(), true, 'the primary exited before its workers finished');
  slow.finish();
  assert.equal((await slow.response).status, 201);
  assert.deepEqual(await server.exited, { code: 0, signal: null });
}
