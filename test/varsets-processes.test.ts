import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, createTestStore, expectStatus, storeKind, type TestStore } from './helpers.js';
import { createOrganization, createVarset, httpClient, type Client } from './varsets-fixtures.js';
import { raceAddSameKey, raceCreateGlobalSets, raceFlipGlobal, raceRenameIntoSameKey } from './varsets-races.js';

/**
 * Two real varsetd processes on one store (one PostgreSQL database, or one SQLite file),
 * with concurrent HTTP requests spread over both: the organization lock must hold the
 * global rule across processes, not only within one.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

async function startServer(store: TestStore): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, HOST: '127.0.0.1', PORT: String(port), VARSETD_ADMIN_TOKEN: ADMIN_TOKEN, VARSETD_DATA_DIR: store.dataDir, LOG_LEVEL: 'warn' };
  if (store.databaseUrl) env.DATABASE_URL = store.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server: Server = { child, url: `http://127.0.0.1:${port}`, output: [] };
  child.stdout!.on('data', (chunk) => server.output.push(String(chunk)));
  child.stderr!.on('data', (chunk) => server.output.push(String(chunk)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`varsetd exited with ${child.exitCode}:\n${server.output.join('')}`);
    try {
      if ((await fetch(`${server.url}/api/v2/ping`)).status === 204) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`varsetd did not answer ping within 60 s:\n${server.output.join('')}`);
}

async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

describe(`the global rule across two server processes (${storeKind})`, () => {
  let store: TestStore;
  const servers: Server[] = [];
  let clients: Client[];
  // Should this test process die before `after` runs, its servers go with it.
  const killAll = () => servers.forEach((s) => s.child.kill('SIGKILL'));

  before(async () => {
    process.once('exit', killAll);
    store = await createTestStore();
    // One after the other: the first creates the schema and the configured admin token.
    servers.push(await startServer(store));
    servers.push(await startServer(store));
    clients = servers.map((s) => httpClient(s.url));
  });

  after(async () => {
    await Promise.all(servers.map(stopServer));
    process.removeListener('exit', killAll);
    await store?.dispose();
  });

  it('both processes serve the same store', async () => {
    const org = await createOrganization(clients[0]!);
    const set = await createVarset(clients[0]!, org, { attributes: { global: true }, vars: [{ key: 'seen' }] });
    const shown = await clients[1]!.get(`/api/v2/varsets/${set.id}`);
    expectStatus(shown, 200);
    assert.equal(shown.body.data.attributes['var-count'], 1);
  });

  const N = 16;
  it('lets exactly one of many concurrent global set creations with the same variable win', async () => {
    await raceCreateGlobalSets(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many concurrent additions of one key to different global sets win', async () => {
    await raceAddSameKey(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many sets holding the same variable become global', async () => {
    await raceFlipGlobal(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many concurrent renames into the same key win', async () => {
    await raceRenameIntoSameKey(clients, await createOrganization(clients[0]!), N);
  });
});
