/**
 * The rolling upgrade, proved: three hosts of the previous release on one PostgreSQL behind
 * HAProxy, clients reading and writing through it all along, the hosts upgraded one at a time
 * to this build by docs/deployment.md's procedure, then restarted one at a time. Counts failed
 * requests, lost acknowledged writes and sets whose versions have gaps; all must be 0.
 * Run by scripts/rolling-upgrade.sh, which builds both and provides PostgreSQL and HAProxy:
 *   node --import tsx scripts/rolling-upgrade/main.ts PREVIOUS_DIR PREVIOUS_NAME CURRENT_DIR HAPROXY
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  haproxyConfig,
  RotationWatch,
  serverStats,
  startHaproxy,
  waitForServerStatus,
  type Haproxy,
} from './haproxy.js';
import { Client, LoadRecord, send, type Answer } from './load.js';
import { olderWriterCheck } from './older-writer.js';
import {
  freePort,
  killServers,
  sleep,
  startServer,
  stopServer,
  waitForStatus200,
  type Build,
  type Host,
} from './servers.js';
import { verifyStore } from './verify.js';
import { EXPAND_SUFFIX, migrations } from '../../src/db/migrations/index.js';

const [previousDir, previousName, currentDir, haproxyBinary] = process.argv.slice(2);
const databaseUrl = process.env.TEST_DATABASE_URL;
if (!previousDir || !previousName || !currentDir || !haproxyBinary || !databaseUrl) {
  console.error('usage: main.ts PREVIOUS_DIR PREVIOUS_NAME CURRENT_DIR HAPROXY, with TEST_DATABASE_URL set');
  process.exit(2);
}
const previous: Build = { name: previousName, dir: previousDir };
const current: Build = { name: 'this build', dir: currentDir };

/**
 * The migrations this build adds to the previous release's (those its released.json lists). A
 * rolling upgrade is the documented procedure only when all are expand: with a contract one,
 * every host stops first (docs/deployment.md#upgrading), and this test does not apply.
 */
const released = JSON.parse(
  fs.readFileSync(path.join(previousDir, 'src/db/migrations/released.json'), 'utf8'),
) as Record<string, unknown>;
const added = Object.keys(migrations).filter((name) => !(name in released));
const contract = added.filter((name) => !name.endsWith(EXPAND_SUFFIX));
if (contract.length > 0) {
  console.error(
    `rolling-upgrade: ${contract.join(', ')} ${contract.length > 1 ? 'are contract migrations' : 'is a contract migration'}: ` +
      `an upgrade from ${previousName} stops every host first (docs/deployment.md#upgrading), not one at a time`,
  );
  process.exit(1);
}

/** The drain delay matching HAProxy's checks: 2 failures × 1 s + a check's 1 s timeout. */
const DRAIN_DELAY_S = 3;
const CLIENTS = 6;
/** Each client's pause between an answer and its next request. */
const PAUSE_MS = 20;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const ORGANIZATION = 'rolling';

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[${elapsed()}] ${line}`);
const problems: string[] = [];

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-rolling-'));
const frontPort = await freePort();
const statsPort = await freePort();
const keyring = randomBytes(32).toString('base64');
const hosts: Host[] = [];
for (const name of ['host1', 'host2', 'host3']) {
  const dataDir = path.join(work, name);
  fs.mkdirSync(dataDir, { mode: 0o700 });
  hosts.push({
    name,
    port: await freePort(),
    logDir: work,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      VARSETD_DATA_DIR: dataDir,
      VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
      VARSETD_ENCRYPTION_KEY: keyring,
      VARSETD_WORKERS: '2',
      VARSETD_DRAIN_DELAY: String(DRAIN_DELAY_S),
      VARSETD_KEEP_ALIVE_TIMEOUT: '65',
      VARSETD_TRUST_PROXY: '127.0.0.1',
    },
  });
}

let haproxy: Haproxy | undefined;
const record = new LoadRecord();
const clients: Client[] = [];
const base = `http://127.0.0.1:${frontPort}`;
const admin = new http.Agent({ keepAlive: true });
const adminCall = (method: string, url: string, body?: unknown) => send(admin, base, method, url, ADMIN_TOKEN, body);
function expect(answer: Answer, status: number, what: string): any {
  if (answer.status !== status)
    throw new Error(`${what}: ${answer.status} ${answer.error ?? JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Stops a host (SIGTERM), starts `build` in its place, and waits until HAProxy counts it in rotation again. */
async function cycle(watch: RotationWatch, host: Host, build: Build, label: string): Promise<RunningSummary> {
  record.phase = `${label} ${host.name}`;
  watch.expectedDown = host.name;
  const was = host.server!.build.name;
  const signalled = Date.now();
  const out = waitForServerStatus(haproxy!, host.name, 'DOWN', 30_000).then(() => Date.now() - signalled);
  const stop = await stopServer(host);
  const outAfter = await out;
  if (stop.code !== 0) problems.push(`${host.name}: ${was} ended with ${stop.code ?? stop.signal} on SIGTERM, not 0`);
  const starting = Date.now();
  host.server = await startServer(host, build);
  await waitForStatus200(`http://127.0.0.1:${host.port}/readyz`, 60_000);
  const ready = Date.now() - starting;
  await waitForServerStatus(haproxy!, host.name, 'UP', 15_000);
  const back = Date.now() - starting;
  watch.expectedDown = undefined;
  say(
    `${label} ${host.name}: ${was} out of rotation ${outAfter} ms after SIGTERM, exited ${stop.code ?? stop.signal} after ${stop.ms} ms; ` +
      `${build.name} (${host.server.summary.msg}) ready in ${ready} ms, in rotation after ${back} ms`,
  );
  return host.server.summary;
}
type RunningSummary = NonNullable<Host['server']>['summary'];

try {
  // All three at once, as hosts booting together: one migrates the empty store, the others wait for it.
  await Promise.all(
    hosts.map(async (host) => {
      host.server = await startServer(host, previous);
      await waitForStatus200(`http://127.0.0.1:${host.port}/readyz`, 60_000);
      say(`${host.name}: ${host.server.summary.msg} on 127.0.0.1:${host.port}`);
    }),
  );
  haproxy = startHaproxy(haproxyBinary, work, haproxyConfig(frontPort, statsPort, hosts), statsPort);
  for (const host of hosts) await waitForServerStatus(haproxy, host.name, 'UP', 15_000);
  say(`HAProxy on 127.0.0.1:${frontPort}, the three hosts UP`);
  const watch = new RotationWatch(haproxy);

  record.phase = 'setup';
  expect(
    await adminCall('POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: ORGANIZATION, email: 'ops@rolling.test' } },
    }),
    201,
    'creating the organization',
  );
  const workspace = expect(
    await adminCall('POST', `/api/v2/organizations/${ORGANIZATION}/workspaces`, {
      data: { type: 'workspaces', attributes: { name: 'web' } },
    }),
    201,
    'creating the workspace',
  );
  const organizationToken = expect(
    await adminCall('POST', `/api/v2/organizations/${ORGANIZATION}/authentication-token`),
    201,
    'creating the organization token',
  ).data.attributes.token as string;
  const team = expect(
    await adminCall('POST', `/api/v2/organizations/${ORGANIZATION}/teams`, {
      data: { type: 'teams', attributes: { name: 'platform', 'organization-access': { 'manage-workspaces': true } } },
    }),
    200,
    'creating the team',
  );
  const teamToken = expect(
    await adminCall('POST', `/api/v2/teams/${team.data.id}/authentication-token`),
    201,
    'creating the team token',
  ).data.attributes.token as string;
  const target = { base, organization: ORGANIZATION, workspaceId: workspace.data.id as string };
  for (let i = 0; i < CLIENTS; i++) {
    const client = new Client(i + 1, i % 2 === 0 ? organizationToken : teamToken, target, record);
    clients.push(client);
    await client.createSet();
    await client.createSet();
  }
  if (record.failed > 0) throw new Error(`setting the clients up failed: ${record.failures.join('; ')}`);

  record.phase = `steady, ${previous.name}`;
  for (const client of clients) client.start(PAUSE_MS);
  say(`${CLIENTS} clients reading and writing through HAProxy`);
  await sleep(3_000);

  for (const [i, host] of hosts.entries()) {
    const summary = await cycle(watch, host, current, 'upgrade');
    const expected = i === 0 ? added : [];
    if (JSON.stringify(summary.appliedMigrations) !== JSON.stringify(expected))
      problems.push(
        `${host.name}: applied ${JSON.stringify(summary.appliedMigrations)}, not ${JSON.stringify(expected)}`,
      );
    if (i === 0) {
      record.phase = `mixed: ${host.name} this build, the others ${previous.name}`;
      const older = hosts[1]!;
      const check = await olderWriterCheck(databaseUrl, ADMIN_TOKEN, ORGANIZATION, older.port, host.port);
      say(`a server of ${previous.name} (${older.name}) writing beside the new schema: ${check.summary}`);
      problems.push(...check.problems);
      await sleep(2_000);
    }
  }
  record.phase = 'steady, this build';
  await sleep(2_000);
  for (const host of hosts) await cycle(watch, host, current, 'restart');
  record.phase = 'steady, after the restart';
  await sleep(2_000);

  await Promise.all(clients.map((client) => client.stop()));
  await watch.stop();
  const stats = [...(await serverStats(haproxy)).values()];
  const sum = (field: 'retries' | 'redispatches' | 'responseErrors' | 'connectionErrors') =>
    stats.reduce((total, server) => total + server[field], 0);
  const verdict = await verifyStore(databaseUrl, record);

  for (const failure of record.failures) console.log(`  failed: ${failure}`);
  for (const line of [...verdict.lost, ...verdict.gaps, ...verdict.uncounted].slice(0, 20))
    console.log(`  store: ${line}`);
  for (const line of watch.unexpected.slice(0, 20)) console.log(`  out of rotation unexpectedly: ${line}`);
  for (const problem of problems) console.log(`  problem: ${problem}`);
  const operations = [...record.byOperation].map(([operation, n]) => `${operation} ${n}`).join(', ');
  say(`requests by kind: ${operations}; slowest answer ${Math.round(record.maxMs)} ms`);
  const variablesAdded = record.variables.length;
  const variablesDeleted = record.variables.filter((v) => v.deleted).length;
  console.log(
    `rolling upgrade ${previous.name} -> this build and rolling restart: requests ${record.requests}, failed ${record.failed}, ` +
      `lost ${verdict.lost.length} (of ${record.sets.size} sets created, ${variablesAdded} variables added, ${variablesDeleted} deleted), ` +
      `gaps ${verdict.gaps.length} (${verdict.setsChecked} sets, ${verdict.versionsChecked} versions), versions not matching writes ${verdict.uncounted.length}, ` +
      `out of rotation unexpectedly ${watch.unexpected.length}, HAProxy retries ${sum('retries')} redispatches ${sum('redispatches')} ` +
      `response errors ${sum('responseErrors')} connection errors ${sum('connectionErrors')}, duration ${elapsed()}`,
  );
  const ok =
    record.failed === 0 &&
    verdict.lost.length === 0 &&
    verdict.gaps.length === 0 &&
    verdict.uncounted.length === 0 &&
    watch.unexpected.length === 0 &&
    problems.length === 0;
  for (const host of hosts) {
    const stop = await stopServer(host);
    if (stop.code !== 0) problems.push(`${host.name}: ended with ${stop.code ?? stop.signal} on SIGTERM`);
  }
  process.exitCode = ok && problems.length === 0 ? 0 : 1;
  if (process.exitCode !== 0) console.log(`FAILED; logs in ${work}`);
} catch (error) {
  console.log(`FAILED: ${error instanceof Error ? error.message : String(error)}; logs in ${work}`);
  for (const failure of record.failures) console.log(`  failed: ${failure}`);
  process.exitCode = 1;
} finally {
  await Promise.all(clients.map((client) => client.stop()));
  admin.destroy();
  await killServers(hosts);
  if (haproxy && haproxy.child.exitCode === null) {
    haproxy.child.kill('SIGTERM');
    await haproxy.exited;
  }
  if (process.exitCode === 0) fs.rmSync(work, { recursive: true, force: true });
}
