import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind } from './support/store.js';

interface Outcome {
  status: number;
  /** The error of a request that got no answer, such as ECONNREFUSED or ECONNRESET. */
  error?: string;
  connection?: string;
  at: number;
}

/** One request on `agent`'s kept-alive connections. */
function send(agent: http.Agent, base: string, method: string, path: string, body?: object): Promise<Outcome> {
  const url = new URL(path, base);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/vnd.api+json' },
        timeout: 10_000,
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, at: Date.now() }),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, error: error.code ?? error.message, at: Date.now() }),
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/**
 * A load balancer in small: clients send reads and writes on their kept-alive connections while
 * the server is in rotation; a check of `/readyz` every 250 ms takes it out after 2 failures.
 */
function balance(
  server: ServerProcess,
  organization: string,
  clients: number,
): { outcomes: Promise<Outcome[]>; outAt: Promise<number>; firstFailure: () => number } {
  const outcomes: Outcome[] = [];
  let inRotation = true;
  let written = 0;
  let firstFailure = Infinity;
  const outAt = (async () => {
    let failures = 0;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      failures = (await readyStatus(server.url)) === 200 ? 0 : failures + 1;
      if (failures === 1) firstFailure = Date.now();
      if (failures === 2) {
        inRotation = false;
        return Date.now();
      }
    }
  })();
  const client = async (index: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (inRotation) {
        outcomes.push(
          index % 2 === 0
            ? await send(agent, server.url, 'GET', `/api/v2/organizations/${organization}`)
            : await send(agent, server.url, 'POST', `/api/v2/organizations/${organization}/varsets`, {
                data: { type: 'varsets', attributes: { name: `set-${index}-${written++}` } },
              }),
        );
      }
    } finally {
      agent.destroy();
    }
  };
  return {
    outcomes: Promise.all(Array.from({ length: clients }, (_, index) => client(index))).then(() => outcomes),
    outAt,
    firstFailure: () => firstFailure,
  };
}

async function readyStatus(base: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: false });
  return (await send(agent, base, 'GET', '/readyz')).status;
}

const WAIT = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)),
  ]);

for (const workers of ['1', '2']) {
  describe(`the drain on SIGTERM with ${workers} worker(s) (${storeKind})`, () => {
    async function start(drainDelay: string): Promise<{ server: ServerProcess; dispose: () => Promise<void> }> {
      const store = await createTestStore();
      const server = await startServerProcess(
        varsetdEnv(store, {
          VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
          VARSETD_WORKERS: workers,
          VARSETD_DRAIN_DELAY: drainDelay,
          LOG_LEVEL: 'info',
        }),
      );
      return {
        server,
        dispose: async () => {
          await server.stop();
          await store.dispose();
        },
      };
    }

    it('answers not ready while it still serves for the drain delay, then fails no request it accepted', async () => {
      const { server, dispose } = await start('3');
      try {
        const organization = `drain-${workers}`;
        const created = await send(new http.Agent(), server.url, 'POST', '/api/v2/organizations', {
          data: { type: 'organizations', attributes: { name: organization, email: 'ops@drain.test' } },
        });
        assert.equal(created.status, 201);
        assert.equal(await readyStatus(server.url), 200);

        const traffic = balance(server, organization, 4);
        await new Promise((resolve) => setTimeout(resolve, 700));
        const signalledAt = Date.now();
        server.sendSignal('SIGTERM');
        const outAt = await WAIT(traffic.outAt, 3_000, 'readiness did not fail');
        assert.ok(outAt - signalledAt < 1_500, `taken out of rotation ${outAt - signalledAt} ms after SIGTERM`);
        const outcomes = await traffic.outcomes;

        // Until the drain delay is over, whatever still comes is answered, and its connection closed.
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(await readyStatus(server.url), 503);
        const late = await send(
          new http.Agent({ keepAlive: true }),
          server.url,
          'GET',
          `/api/v2/organizations/${organization}`,
        );
        assert.equal(late.status, 200, JSON.stringify(late));
        assert.equal(late.connection, 'close');
        assert.ok(server.isRunning(), 'it serves for the drain delay');

        const { code } = await WAIT(server.exited, 10_000, 'varsetd did not exit');
        assert.equal(code, 0, server.output());
        const exitedAfter = Date.now() - signalledAt;
        assert.ok(exitedAfter >= 3_000, `exited ${exitedAfter} ms after SIGTERM, before the drain delay was over`);
        assert.equal(await readyStatus(server.url), 0, 'no connection is accepted after the drain');

        const failed = outcomes.filter((outcome) => outcome.error !== undefined || outcome.status >= 400);
        assert.deepEqual(failed, [], 'a request failed');
        assert.ok(outcomes.length >= 20, `only ${outcomes.length} requests were sent`);
        // Requests go on being answered, not refused, once readiness fails; each answer closes its connection.
        const afterFailure = outcomes.filter((outcome) => outcome.at > traffic.firstFailure() + 50);
        assert.ok(
          afterFailure.length >= 4,
          `only ${afterFailure.length} requests were answered after readiness failed`,
        );
        assert.deepEqual(
          afterFailure.filter((outcome) => outcome.connection !== 'close'),
          [],
          'every answer after readiness failed closes its connection',
        );
        assert.match(server.output(), /stopping: not ready, still serving until the drain/);
      } finally {
        await dispose();
      }
    });

    for (const second of ['SIGTERM', 'SIGINT'] as const) {
      it(`ends the drain delay at once on a second signal (${second})`, async () => {
        const { server, dispose } = await start('120');
        try {
          server.sendSignal('SIGTERM');
          await new Promise((resolve) => setTimeout(resolve, 500));
          assert.equal(await readyStatus(server.url), 503);
          const signalledAt = Date.now();
          server.sendSignal(second);
          const { code } = await WAIT(server.exited, 10_000, 'varsetd did not exit');
          assert.equal(code, 0, server.output());
          assert.ok(Date.now() - signalledAt < 10_000);
        } finally {
          await dispose();
        }
      });
    }

    it('drains at once on SIGINT, with no drain delay', async () => {
      const { server, dispose } = await start('120');
      try {
        server.sendSignal('SIGINT');
        const { code } = await WAIT(server.exited, 10_000, 'varsetd did not exit');
        assert.equal(code, 0, server.output());
        assert.doesNotMatch(server.output(), /stopping: not ready/);
      } finally {
        await dispose();
      }
    });
  });
}
