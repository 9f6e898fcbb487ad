/**
 * varsetd's load benchmark: `npm run bench` (SQLite), or with DATABASE_URL=postgres://…
 * (a fresh database is created on that server and dropped afterwards).
 *
 * It starts varsetd as its own process on a fresh store, seeds data, and for each scenario
 * drives load with autocannon against varsetd and against a floor (a bare Fastify route in
 * its own process answering a document of the same size), and for reads against the least
 * read (bench/least-read.ts), then prints a table and writes
 * bench/results/<date>-<store>.json. Any non-2xx response fails the run.
 *
 * Settings (environment): BENCH_DURATION seconds per measured run (10), BENCH_WARMUP
 * seconds before it (2), BENCH_SLICE seconds of one turn (varsetd and the floor take turns,
 * 2), BENCH_CONNECTIONS (4), BENCH_MAX_REQUESTS per run (250000),
 * BENCH_SCENARIOS (e.g. "1,2,6"; all by default; 8, the history of a set, 9, the audit trail, 10 and 11, the search by variable key, need 6), BENCH_LABEL (suffix of the result file),
 * BENCH_LOG_LEVEL (varsetd's log level, warn), BENCH_WORKERS (varsetd's VARSETD_WORKERS, 1), BENCH_SERVER_NODE_ARGS (extra node flags for
 * varsetd, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/db/connect.js';
import { sqliteModule } from '../src/db/sqlite-module.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { DEFAULT_RESPONSE_CACHE_MB } from '../src/cache/response-cache.js';
import { Api } from './api.js';
import { drive, type LoadRequest, type LoadResult, type LoadSettings, type LoadTarget } from './load.js';
import {
  cleanupAll,
  freePort,
  freshPostgresDatabase,
  onCleanup,
  postgresCluster,
  startProcess,
  type ManagedProcess,
} from './processes.js';
import { queryCounter, type CountedRequest, type RequestQueries } from './queries.js';
import {
  machine,
  packageVersion,
  table,
  varsetdVersion,
  writeReport,
  type Report,
  type ScenarioResult,
} from './report.js';
import {
  analyze,
  LARGE,
  MEDIUM,
  seedAuditTrail,
  seedHistory,
  seedOrganization,
  type SeededOrganization,
} from './seed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = `bench-admin-${randomAlphanumeric(32)}`;
/** varsetd's process and log, shown when the run fails. */
let serverProcess: ManagedProcess | undefined;
let serverLog: string | undefined;

function numberSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got ${raw}`);
  return value;
}

const settings: LoadSettings & { logLevel: string; responseCacheMb: number; workers: number } = {
  duration: numberSetting('BENCH_DURATION', 10),
  warmup: numberSetting('BENCH_WARMUP', 2),
  slice: Math.max(1, numberSetting('BENCH_SLICE', 2)),
  connections: Math.max(1, Math.floor(numberSetting('BENCH_CONNECTIONS', 4))),
  maxRequests: Math.max(1, Math.floor(numberSetting('BENCH_MAX_REQUESTS', 250_000))),
  logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
  // varsetd's own setting, passed on to it: 0 measures every request as a cache miss.
  responseCacheMb: Math.max(0, Math.floor(numberSetting('VARSETD_RESPONSE_CACHE_MB', DEFAULT_RESPONSE_CACHE_MB))),
  // varsetd's worker processes; the floor is always one process.
  workers: Math.max(1, Math.floor(numberSetting('BENCH_WORKERS', 1))),
};
const selected = new Set(
  (process.env.BENCH_SCENARIOS || '1,2,3,4,5,6,8,9,10,11').split(',').map((s) => Number(s.trim())),
);

/** One scenario: what autocannon sends, what the floor answers, and one cycle of requests to count queries with. */
interface Plan {
  id: number;
  name: string;
  target?: string;
  requests: LoadRequest[];
  describe: string[];
  floor: Record<string, { status: number; body: unknown }>;
  /** A read's URL, answered by the least read (bench/least-read.ts) beside the floor. */
  leastRead?: string;
  counted: () => CountedRequest[];
  countedLarge?: () => CountedRequest[];
}

let uniqueKey = 0;
const nextKey = () => `bench_${process.pid}_${uniqueKey++}`;
const variableBody = (key: string) => ({
  data: {
    type: 'vars',
    attributes: {
      key,
      value: 'us-east-1',
      category: 'terraform',
      description: 'added by the benchmark',
      hcl: false,
      sensitive: false,
    },
  },
});

/**
 * A read scenario: its document fetched once (the floor answers it), checked to hold `count`
 * resources in its `member` (a full page, the included variables), and the same GET counted.
 */
async function readPlan(
  api: Api,
  id: number,
  name: string,
  url: string,
  [member, count]: ['data' | 'included', number],
  target?: string,
): Promise<Plan> {
  const document = (await api.get(url)).body;
  const found = document[member]?.length;
  if (found !== count) throw new Error(`scenario ${id}: expected ${count} resources in ${member}, got ${found}`);
  return {
    id,
    name,
    ...(target ? { target } : {}),
    requests: [{ method: 'GET', path: url }],
    describe: [`GET ${url}`],
    floor: { GET: { status: 200, body: document } },
    leastRead: url,
    counted: () => [{ method: 'GET', url }],
  };
}

/** Scenario 4: add a variable with a fresh key to a global set (the conflict check runs), then delete it. */
async function writePlan(api: Api, setId: string, largeSetId: () => string | undefined): Promise<Plan> {
  const varsPath = (set: string) => `/api/v2/varsets/${set}/relationships/vars`;
  const added = await api.post(varsPath(setId), variableBody(nextKey()));
  await api.delete(`${varsPath(setId)}/${added.body.data.id}`);
  return {
    id: 4,
    name: 'add + delete a variable in a global set',
    target: 'constant queries',
    requests: [
      {
        method: 'POST',
        path: varsPath(setId),
        setupRequest: (request) => ({ ...request, body: JSON.stringify(variableBody(nextKey())) }),
        onResponse: (status, body, context) => {
          (context as { varId?: string }).varId =
            status === 200 || status === 201 ? JSON.parse(body).data.id : 'failed-to-add';
        },
      },
      {
        method: 'DELETE',
        path: varsPath(setId),
        setupRequest: (request, context) => ({
          ...request,
          path: `${varsPath(setId)}/${(context as { varId?: string }).varId}`,
        }),
      },
    ],
    describe: [`POST ${varsPath(setId)}`, `DELETE ${varsPath(setId)}/:var_id`],
    floor: { POST: { status: added.status, body: added.body }, DELETE: { status: 204, body: null } },
    counted: () => [{ method: 'POST', url: varsPath(setId), body: variableBody(nextKey()) }],
    countedLarge: () => {
      const large = largeSetId();
      return large ? [{ method: 'POST', url: varsPath(large), body: variableBody(nextKey()) }] : [];
    },
  };
}

/** A gzipped tar holding one main.tf, the configuration a client uploads. */
function configurationArchive(): Buffer {
  const content = Buffer.from('resource "null_resource" "foo" {}\n');
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number) => header.write(text, offset, 'ascii');
  put('main.tf', 0);
  put('0000644\0', 100);
  put('0000000\0', 108);
  put('0000000\0', 116);
  put(content.length.toString(8).padStart(11, '0') + '\0', 124);
  put(
    Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0') + '\0',
    136,
  );
  put('        ', 148);
  put('0', 156);
  put('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return gzipSync(Buffer.concat([header, content, padding, Buffer.alloc(1024)]));
}

/** Scenario 5: a run made the way clients make one, then comments on it. */
async function commentPlan(api: Api, org: string): Promise<Plan> {
  const ws = await api.post(`/api/v2/organizations/${org}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: `bench-runs-${randomAlphanumeric(6)}` } },
  });
  const cv = await api.post(`/api/v2/workspaces/${ws.body.data.id}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
  });
  const upload = await fetch(cv.body.data.attributes['upload-url'], {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(configurationArchive()),
  });
  if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  const run = await api.post('/api/v2/runs', {
    data: {
      type: 'runs',
      relationships: {
        'configuration-version': { data: { type: 'configuration-versions', id: cv.body.data.id } },
        workspace: { data: { type: 'workspaces', id: ws.body.data.id } },
      },
    },
  });
  const url = `/api/v2/runs/${run.body.data.id}/comments`;
  const body = {
    data: {
      type: 'comments',
      attributes: {
        body: 'Plan looks right: 3 to add, 0 to change, 0 to destroy. Approving after the change window opens.',
      },
    },
  };
  const created = await api.post(url, body);
  return {
    id: 5,
    name: 'create a comment on a run',
    requests: [{ method: 'POST', path: url, body: JSON.stringify(body) }],
    describe: [`POST ${url}`],
    floor: { POST: { status: created.status, body: created.body } },
    counted: () => [{ method: 'POST', url, body }],
  };
}

/** A bare process of `bench/` (the floor, the least read) for scenario `plan`, given its configuration. */
async function startBare(
  script: string,
  plan: Plan,
  workDir: string,
  config: (port: number) => object,
): Promise<ManagedProcess> {
  const port = await freePort();
  const name = path.basename(script, '.ts');
  const configFile = path.join(workDir, `${name}-${plan.id}.json`);
  fs.writeFileSync(configFile, JSON.stringify(config(port)));
  return startProcess({
    name: `${name} ${plan.id}`,
    args: ['--import', 'tsx', path.join(root, 'bench', script), configFile],
    env: { ...process.env, NODE_ENV: 'production' },
    port,
    logFile: path.join(workDir, `${name}-${plan.id}.log`),
    readyPath: '/',
    readyStatus: 401,
  });
}

async function measure(
  plan: Plan,
  server: LoadTarget,
  api: Api,
  workDir: string,
  counter: RequestQueries,
  data: { dataDir: string; databaseUrl: string | undefined },
): Promise<ScenarioResult> {
  console.error(`bench: scenario ${plan.id}: ${plan.name}`);
  // Whatever was started is stopped, also when a later start or the load fails.
  const started: ManagedProcess[] = [];
  const start = async (script: string, config: (port: number) => object) => {
    const bare = await startBare(script, plan, workDir, config);
    started.push(bare);
    return bare;
  };
  let floorResult, varsetd, leastRead;
  try {
    const floor = await start('floor.ts', (port) => ({ port, token: api.token, responses: plan.floor }));
    const least = plan.leastRead
      ? await start('least-read.ts', (port) => ({ port, token: api.token, ...data, url: plan.leastRead }))
      : undefined;
    [floorResult, varsetd, leastRead] = (await drive(
      least ? [floor, server, least] : [floor, server],
      api.authorization,
      plan.requests,
      settings,
    )) as [LoadResult, LoadResult, LoadResult?];
  } finally {
    for (const bare of started) await bare.stop();
  }
  const queries = [];
  for (const request of plan.counted()) queries.push((await counter.count(request)).queries);
  // The same requests once more: reads are then answered from the response cache, as under load.
  const queriesAgain = [];
  for (const request of plan.counted()) queriesAgain.push((await counter.count(request)).queries);
  const large = plan.countedLarge?.() ?? [];
  const queriesLarge = [];
  for (const request of large) queriesLarge.push((await counter.count(request)).queries);
  return {
    id: plan.id,
    name: plan.name,
    requests: plan.describe,
    varsetd,
    floor: floorResult,
    throughputRatio: varsetd.requestsPerSecond / floorResult.requestsPerSecond,
    ...(varsetd.cpuMsPerRequest && floorResult.cpuMsPerRequest
      ? { cpuRatio: floorResult.cpuMsPerRequest / varsetd.cpuMsPerRequest }
      : {}),
    ...(leastRead ? { leastRead, leastReadRatio: leastRead.requestsPerSecond / floorResult.requestsPerSecond } : {}),
    queriesPerRequest: queries,
    queriesPerRepeatedRequest: queriesAgain,
    ...(queriesLarge.length ? { queriesPerRequestLarge: queriesLarge } : {}),
    ...(plan.target ? { target: plan.target } : {}),
  };
}

async function storeVersion(store: Store): Promise<string> {
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(store.db);
    return `SQLite ${rows[0]!.v} (${sqliteModule().description})`;
  }
  const { rows } = await sql<{ v: string }>`show server_version`.execute(store.db);
  return `PostgreSQL ${Object.values(rows[0]!)[0]} (pg ${packageVersion('pg')})`;
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-bench-'));
  onCleanup('remove the work folder', async () => fs.rmSync(workDir, { recursive: true, force: true }));
  const adminUrl = process.env.DATABASE_URL || undefined;
  const postgres = adminUrl ? await freshPostgresDatabase(adminUrl, 'varsetd_bench') : undefined;
  if (postgres) onCleanup('drop the database', postgres.drop);
  const databaseUrl = postgres?.url;
  const dataDir = path.join(workDir, 'data');
  const storeKind = databaseUrl ? 'postgres' : 'sqlite';

  const port = await freePort();
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    VARSETD_DATA_DIR: dataDir,
    VARSETD_ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: settings.logLevel,
    VARSETD_RESPONSE_CACHE_MB: String(settings.responseCacheMb),
    VARSETD_WORKERS: String(settings.workers),
    NODE_ENV: 'production',
  };
  delete serverEnv.DATABASE_URL;
  if (databaseUrl) serverEnv.DATABASE_URL = databaseUrl;
  // Migrations run as the server starts; the seeding connection opens after that.
  const server = await startProcess({
    name: 'varsetd',
    args: [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      path.join(root, 'dist', 'main.js'),
      'serve',
    ],
    env: serverEnv,
    port,
    logFile: (serverLog = path.join(workDir, 'varsetd.log')),
    readyPath: '/api/v2/ping',
    readyStatus: 204,
    // Several workers on a busy machine take a while to start.
    timeoutMs: 180_000,
  });
  serverProcess = server;
  console.error(`bench: varsetd (pid ${server.pid}) on ${server.url}, ${storeKind} store`);
  const store = await openStore({ databaseUrl, dataDir });
  onCleanup('close the seeding connection', () => store.close());
  const api = new Api(server.url, TOKEN);
  const counter = await queryCounter(store, api.authorization, settings.responseCacheMb * 1024 * 1024);
  onCleanup('close the in-process app', () => counter.close());

  const started = Date.now();
  const medium = await seedOrganization(api, store, 'bench-medium', MEDIUM, 1);
  await analyze(store);
  console.error(
    `bench: seeded ${medium.name} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(medium.counts)}`,
  );
  let large: SeededOrganization | undefined;

  // Scenario 1's set: ten variables, applied to a few workspaces, created through the API.
  const shown = await api.post(`/api/v2/organizations/${medium.name}/varsets`, {
    data: {
      type: 'varsets',
      attributes: {
        name: 'bench-shown-set',
        description: 'Credentials and defaults for the payments services',
        global: false,
        priority: false,
      },
      relationships: {
        vars: {
          data: Array.from({ length: 10 }, (_, i) => ({
            type: 'vars',
            attributes: {
              key: i < 5 ? `payments_setting_${i}` : `PAYMENTS_ENV_${i}`,
              value: `value-${i}-${randomAlphanumeric(12)}`,
              category: i < 5 ? 'terraform' : 'env',
              description: `Setting ${i} of the payments services`,
            },
          })),
        },
      },
    },
  });
  const shownId = shown.body.data.id as string;

  const mediumListUrl = `/api/v2/workspaces/${medium.listWorkspaceId}/varsets`;
  // On PostgreSQL the cluster's CPU is measured beside varsetd's, over varsetd's slices only.
  const cluster = adminUrl ? await postgresCluster(adminUrl) : undefined;
  if (cluster) console.error(`bench: PostgreSQL's postmaster is pid ${cluster.pid}; its CPU is measured too`);
  const target: LoadTarget = cluster
    ? { url: server.url, cpuSeconds: () => server.cpuSeconds(), databaseCpuSeconds: cluster.cpuSeconds }
    : server;
  const measured = (plan: Plan) => measure(plan, target, api, workDir, counter, { dataDir, databaseUrl });
  const results: ScenarioResult[] = [];
  const plans: Array<[number, () => Promise<Plan>]> = [
    [
      1,
      () =>
        readPlan(
          api,
          1,
          'show a set, include=vars (10 vars)',
          `/api/v2/varsets/${shownId}?include=vars`,
          ['included', 10],
          'ratio ≥ 0.5',
        ),
    ],
    [
      2,
      () => readPlan(api, 2, "list a workspace's sets (1k sets, 5k ws)", mediumListUrl, ['data', 20], 'ratio ≥ 0.33'),
    ],
    [
      3,
      () =>
        readPlan(
          api,
          3,
          "list an org's sets, q=prod",
          `/api/v2/organizations/${medium.name}/varsets?q=prod`,
          ['data', 20],
          'ratio ≥ 0.33',
        ),
    ],
    [4, () => writePlan(api, medium.globalSetId, () => large?.globalSetId)],
    [5, () => commentPlan(api, medium.name)],
  ];
  for (const [id, plan] of plans) {
    if (selected.has(id)) results.push(await measured(await plan()));
  }
  const memory: Report['memory'] = { 'peak RSS of varsetd after the 1k-set scenarios': server.peakRssKiB() };

  if (selected.has(6)) {
    const begun = Date.now();
    large = await seedOrganization(api, store, 'bench-large', LARGE, 2);
    await analyze(store);
    console.error(
      `bench: seeded ${large.name} in ${((Date.now() - begun) / 1000).toFixed(1)} s: ${JSON.stringify(large.counts)}`,
    );
    memory['peak RSS of varsetd after seeding the 10k-set organization'] = server.peakRssKiB();
    if (selected.has(2)) {
      // Scenario 2 once more, now that the database holds the 10k organization too: what the larger organization costs apart from the larger database.
      results.push(
        await measured(
          await readPlan(api, 7, 'as 2, once the 10k organization is seeded', mediumListUrl, ['data', 20]),
        ),
      );
    }
    results.push(
      await measured(
        await readPlan(
          api,
          6,
          "list a workspace's sets (10k sets, 50k ws)",
          `/api/v2/workspaces/${large.listWorkspaceId}/varsets`,
          ['data', 20],
          'ratio ≥ 0.33, ≤ 1.3× #2',
        ),
      ),
    );
    if (selected.has(8)) {
      // A million versions in the 10k organization, 100,000 of them on the set whose history is read.
      const begun = Date.now();
      const history = await seedHistory(store, large.id, 1_000_000, 100_000);
      await analyze(store);
      console.error(`bench: seeded ${history.versions} set versions in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
      const plan = await readPlan(
        api,
        8,
        "a set's versions, first page (1M versions, 100k of this set)",
        `/api/v2/varsets/${history.hotSetId}/versions`,
        ['data', 20],
        'p99 < 50 ms',
      );
      results.push(await measured({ ...plan, leastRead: undefined }));
    }
    if (selected.has(9)) {
      const begun = Date.now();
      const events = await seedAuditTrail(store, large.id, 1_000_000);
      await analyze(store);
      console.error(`bench: seeded ${events} audit events in ${((Date.now() - begun) / 1000).toFixed(1)} s`);
      const url = `/api/v2/organization/audit-trail?filter%5Borganization%5D%5Bname%5D=${large.name}`;
      const plan = await readPlan(
        api,
        9,
        'the audit trail, first page of 1000 (1M events)',
        url,
        ['data', 1000],
        'p99 < 50 ms',
      );
      results.push(await measured({ ...plan, leastRead: undefined }));
    }
    // "Which sets define KEY?", in the 10k organization: a key one set defines (scenario 10: each global set's
    // keys are its own), and VAULT_TOKEN, which about 1,600 of its sets define, the most any seeded key matches (11).
    const keySearches: Array<[number, string, string]> = [];
    if (selected.has(10)) {
      const rare = await store.db
        .selectFrom('varset_variables')
        .select('key')
        .where('varset_id', '=', large.globalSetId)
        .orderBy('key')
        .executeTakeFirstOrThrow();
      keySearches.push([10, rare.key, 'search the sets by variable key, 1 match (10k sets)']);
    }
    if (selected.has(11))
      keySearches.push([11, 'VAULT_TOKEN', 'search the sets by variable key, ~1,600 matches (10k sets)']);
    for (const [id, key, name] of keySearches) {
      const url = `/api/v2/organizations/${large.name}/varsets?filter%5Bvar%5D%5Bkey%5D=${encodeURIComponent(key)}`;
      const document = (await api.get(url)).body;
      console.error(`bench: scenario ${id}: ${key} is defined by ${document.meta.pagination['total-count']} sets`);
      const plan = await readPlan(api, id, name, url, ['data', Math.min(20, document.data.length)], 'p99 < 50 ms');
      results.push(await measured({ ...plan, leastRead: undefined }));
    }
    // The write path's query count in the larger organization, next to scenario 4's.
    const write = results.find((r) => r.id === 4);
    if (write) {
      const count = await counter.count({
        method: 'POST',
        url: `/api/v2/varsets/${large.globalSetId}/relationships/vars`,
        body: variableBody(nextKey()),
      });
      write.queriesPerRequestLarge = [count.queries];
    }
    memory['peak RSS of varsetd at the end'] = server.peakRssKiB();
  }

  const byId = (id: number) => results.find((r) => r.id === id);
  const s2 = byId(2);
  const s6 = byId(6);
  const s7 = byId(7);
  const latencyRatio = (a: ScenarioResult, b: ScenarioResult) => ({
    p50: a.varsetd.latency.p50 / b.varsetd.latency.p50,
    p99: a.varsetd.latency.p99 / b.varsetd.latency.p99,
    mean: a.varsetd.latency.mean / b.varsetd.latency.mean,
  });
  const report: Report = {
    date: new Date().toISOString().slice(0, 10),
    store: storeKind,
    machine: {
      ...machine(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100),
    },
    versions: {
      varsetd: varsetdVersion(),
      store: await storeVersion(store),
      fastify: packageVersion('fastify'),
      kysely: packageVersion('kysely'),
      autocannon: packageVersion('autocannon'),
    },
    settings,
    seed: { medium: medium.counts, ...(large ? { large: large.counts } : {}) },
    scenarios: results,
    ...(s2 && s6 ? { growth: latencyRatio(s6, s2) } : {}),
    ...(s7 && s6 ? { growthInOneDatabase: latencyRatio(s6, s7) } : {}),
    memory,
  };
  console.log(
    `varsetd ${report.versions.varsetd}, ${report.versions.store}, ${String(report.machine.cpu)} × ${String(report.machine.cores)}, node ${process.version}`,
  );
  console.log(
    `${settings.connections} connections, ${settings.duration} s per run after ${settings.warmup} s of warm-up, response cache ${settings.responseCacheMb ? `${settings.responseCacheMb} MiB` : 'off'}, ${settings.workers} varsetd worker${settings.workers === 1 ? '' : 's'}\n`,
  );
  console.log(table(report));
  const file = writeReport(report, process.env.BENCH_LABEL || undefined);
  console.log(`\nresults: ${path.relative(root, file)}`);
}

main()
  .then(async () => {
    await cleanupAll();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    console.error('bench: FAILED:', error instanceof Error ? error.message : error);
    console.error(
      `bench: varsetd ${serverProcess?.exitStatus() ? `had exited (${serverProcess.exitStatus()})` : 'was still running'}`,
    );
    if (serverLog && fs.existsSync(serverLog))
      console.error(
        `bench: end of varsetd's log:\n${fs.readFileSync(serverLog, 'utf8').split('\n').slice(-30).join('\n')}`,
      );
    await cleanupAll();
    process.exit(1);
  });
