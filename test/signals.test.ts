import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServerProcess, varsetdEnv } from './support/processes.js';
import { ADMIN_TOKEN } from './support/requests.js';
import { createTestStore, storeKind } from './support/store.js';

/** A request whose headers announce a body that never comes: it stays unfinished until the server gives up on it. */
function unfinishedRequest(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST /api/v2/organizations HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nContent-Type: application/vnd.api+json\r\nContent-Length: 100\r\n\r\n{"data"`,
      );
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

const WAIT = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)),
  ]);

for (const workers of ['1', '2']) {
  describe(`signals to varsetd serve with ${workers} worker(s) (${storeKind})`, () => {
    it('goes on serving after SIGHUP when it serves HTTP (only the keyring to reload)', async () => {
      const store = await createTestStore();
      const server = await startServerProcess(
        varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_WORKERS: workers, LOG_LEVEL: 'info' }),
      );
      try {
        server.sendSignal('SIGHUP');
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(server.isRunning(), true, `SIGHUP stopped varsetd:\n${server.output()}`);
        const ping = await fetch(`${server.url}/api/v2/ping`);
        assert.equal(ping.status, 204);
        assert.match(server.output(), /reloaded the keyring/);
      } finally {
        await server.stop();
        await store.dispose();
      }
    });

    it('ends a drain that an unfinished request would hold open, once the request timeout has passed', async () => {
      const store = await createTestStore();
      const server = await startServerProcess(
        varsetdEnv(store, {
          VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
          VARSETD_WORKERS: workers,
          VARSETD_REQUEST_TIMEOUT: '2',
          LOG_LEVEL: 'info',
        }),
      );
      try {
        const socket = await unfinishedRequest(server.url);
        const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
        // Let the server read the headers before it is told to stop.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const stoppedAt = Date.now();
        server.sendSignal('SIGTERM');
        const { code } = await WAIT(server.exited, 10_000, 'varsetd did not exit');
        assert.equal(code, 0, server.output());
        assert.ok(Date.now() - stoppedAt >= 2_000, 'the unfinished request was cut off before its time');
        await WAIT(closed, 2_000, 'the unfinished request was not closed');
        assert.match(server.output(), /closing the connections of requests still unfinished/);
      } finally {
        await server.stop();
        await store.dispose();
      }
    });
  });
}
