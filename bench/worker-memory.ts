/**
 * The memory of varsetd's workers over many reads: `npm run bench:memory`.
 *
 * Starts the built varsetd (dist/main.js) with two workers on a fresh SQLite store, seeds a small
 * organization, then sends 100,000 reads mixed over many distinct resources (show a set with and
 * without its variables, a page of the organization's sets, a workspace's sets, a workspace's
 * effective variables, a page of workspaces, a workspace, the projects), so that each worker's
 * response cache fills up to its limit (VARSETD_RESPONSE_CACHE_MB). Each worker's resident set
 * size (VmRSS in /proc/<pid>/status) is sampled at the start, every 10,000 responses and at the
 * end; the primary's too. Any non-2xx response fails the run. Prints a table and writes
 * bench/results/<date>-worker-memory.json.
 *
 * Settings (environment): MEMORY_REQUESTS (100000), MEMORY_SAMPLE_EVERY (10000),
 * MEMORY_CONNECTIONS (8), VARSETD_RESPONSE_CACHE_MB (varsetd's default), BENCH_LABEL (suffix of the result file).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openStore } from '../src/db/connect.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { DEFAULT_RESPONSE_CACHE_MB } from '../src/cache/response-cache.js';
import { Api } from './api.js';
import { cleanupAll, freePort, onCleanup, startProcess, type ManagedProcess } from './processes.js';
import { machine, packageVersion, varsetdVersion } from './report.js';
import { Random, seedOrganization, type Shape } from './seed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = `bench-admin-${randomAlphanumeric(32)}`;
const SMALL: Shape = { sets: 300, globalSets: 30, projects: 10, workspaces: 2_000 };

function whole(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${raw}`);
  return value;
}

const settings = {
  requests: whole('MEMORY_REQUESTS', 100_000),
  sampleEvery: whole('MEMORY_SAMPLE_EVERY', 10_000),
  connections: Math.max(1, whole('MEMORY_CONNECTIONS', 8)),
  workers: 2,
  responseCacheMb: whole('VARSETD_RESPONSE_CACHE_MB', DEFAULT_RESPONSE_CACHE_MB),
};

/** Resident and peak resident set size of a process, in KiB, from /proc. */
function memoryOf(pid: number): { rssKiB: number; peakKiB: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return { rssKiB: field('VmRSS'), peakKiB: field('VmHWM') };
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

interface Sample {
  responses: number;
  seconds: number;
  primaryKiB: number | undefined;
  /** VmRSS of each worker, by pid. */
  workersKiB: Record<string, number | undefined>;
}

/** The reads: each request picks one kind, then one of many resources of that kind. */
function readMix(names: { organization: string; sets: string[]; workspaces: string[] }): {
  kinds: Array<{ name: string; path: () => string }>;
  pick: () => string;
} {
  const rng = new Random(7);
  const org = names.organization;
  const kinds = [
    { name: 'show a set', path: () => `/api/v2/varsets/${rng.pick(names.sets)}` },
    { name: 'show a set, include=vars', path: () => `/api/v2/varsets/${rng.pick(names.sets)}?include=vars` },
    {
      name: "a page of the organization's sets",
      path: () => `/api/v2/organizations/${org}/varsets?page%5Bnumber%5D=${rng.int(1, 15)}&page%5Bsize%5D=20`,
    },
    { name: "a workspace's sets", path: () => `/api/v2/workspaces/${rng.pick(names.workspaces)}/varsets` },
    {
      name: "a workspace's effective variables",
      path: () => `/api/v2/workspaces/${rng.pick(names.workspaces)}/effective-variables`,
    },
    {
      name: 'a page of workspaces',
      path: () => `/api/v2/organizations/${org}/workspaces?page%5Bnumber%5D=${rng.int(1, 100)}&page%5Bsize%5D=20`,
    },
    { name: 'show a workspace', path: () => `/api/v2/workspaces/${rng.pick(names.workspaces)}` },
    { name: 'the projects', path: () => `/api/v2/organizations/${org}/projects` },
  ];
  return { kinds, pick: () => rng.pick(kinds).path() };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist', 'main.js')))
    throw new Error('dist/main.js is missing: run npm run build (npm run bench:memory does)');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-memory-'));
  onCleanup('remove the work folder', async () => fs.rmSync(workDir, { recursive: true, force: true }));
  const dataDir = path.join(workDir, 'data');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    VARSETD_DATA_DIR: dataDir,
    VARSETD_ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
    VARSETD_WORKERS: String(settings.workers),
    VARSETD_RESPONSE_CACHE_MB: String(settings.responseCacheMb),
    NODE_ENV: 'production',
  };
  delete env.DATABASE_URL;
  const server: ManagedProcess = await startProcess({
    name: 'varsetd',
    args: [path.join(root, 'dist', 'main.js'), 'serve'],
    env,
    port,
    logFile: path.join(workDir, 'varsetd.log'),
    readyPath: '/api/v2/ping',
    readyStatus: 204,
    timeoutMs: 180_000,
  });
  // The ping answers once one worker serves: wait for both.
  const deadline = Date.now() + 120_000;
  while (!fs.readFileSync(server.logFile, 'utf8').includes(' started"') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  const workers = childrenOf(server.pid);
  if (workers.length !== settings.workers)
    throw new Error(`expected ${settings.workers} workers, found ${workers.join(', ')}`);
  console.error(`bench: varsetd (primary ${server.pid}, workers ${workers.join(', ')}) on ${server.url}`);

  const api = new Api(server.url, TOKEN);
  const store = await openStore({ databaseUrl: undefined, dataDir });
  onCleanup('close the seeding connection', () => store.close());
  const seeded = await seedOrganization(api, store, 'memory', SMALL, 5);
  const sets = (
    await store.db.selectFrom('varsets').select('id').where('organization_id', '=', seeded.id).execute()
  ).map((r) => r.id);
  const workspaces = (
    await store.db.selectFrom('workspaces').select('id').where('organization_id', '=', seeded.id).execute()
  ).map((r) => r.id);
  console.error(`bench: seeded ${JSON.stringify(seeded.counts)}`);
  const mix = readMix({ organization: seeded.name, sets, workspaces });
  // Every kind answers before the run counts anything.
  for (const kind of mix.kinds) await api.get(kind.path());

  const samples: Sample[] = [];
  const started = performance.now();
  const sample = (responses: number) => {
    const workersKiB: Record<string, number | undefined> = {};
    for (const pid of workers) workersKiB[pid] = memoryOf(pid)?.rssKiB;
    samples.push({
      responses,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      primaryKiB: memoryOf(server.pid)?.rssKiB,
      workersKiB,
    });
  };
  sample(0);

  let responses = 0;
  const failures = new Map<number, number>();
  const instance = autocannon({
    url: server.url,
    connections: settings.connections,
    amount: settings.requests,
    timeout: 10,
    headers: { authorization: api.authorization, accept: 'application/vnd.api+json' },
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: mix.pick() }) }],
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  instance.on('response', (_client: unknown, status: number) => {
    if (status < 200 || status > 299) failures.set(status, (failures.get(status) ?? 0) + 1);
    responses++;
    if (responses % settings.sampleEvery === 0 && responses < settings.requests) sample(responses);
  });
  const result = await instance;
  sample(responses);
  const statuses = [...failures].map(([status, count]) => `${count}× ${status}`).join(', ');
  if (failures.size > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${statuses || 'no non-2xx'}, ${result.errors} errors, ${result.timeouts} timeouts`);
  if (childrenOf(server.pid).join() !== workers.join())
    throw new Error('a worker was replaced during the run: its memory was not followed');
  const peaks = Object.fromEntries(workers.map((pid) => [pid, memoryOf(pid)?.peakKiB]));
  // What the response cache could hold of this mix (variable-set reads only are kept): every
  // distinct such response, measured after the last sample.
  const cacheable = [
    ...sets.flatMap((id) => [`/api/v2/varsets/${id}`, `/api/v2/varsets/${id}?include=vars`]),
    ...Array.from(
      { length: 15 },
      (_, i) => `/api/v2/organizations/${seeded.name}/varsets?page%5Bnumber%5D=${i + 1}&page%5Bsize%5D=20`,
    ),
    ...workspaces.map((id) => `/api/v2/workspaces/${id}/varsets`),
  ];
  let cacheableCharacters = 0;
  for (let i = 0; i < cacheable.length; i += 16) {
    const texts = await Promise.all(cacheable.slice(i, i + 16).map(async (url) => (await api.get(url)).text));
    for (const [j, text] of texts.entries()) cacheableCharacters += text.length + cacheable[i + j]!.length;
  }

  const mib = (kib: number | undefined) => (kib === undefined ? undefined : Math.round((kib / 1024) * 10) / 10);
  const summary = Object.fromEntries(
    workers.map((pid) => {
      const series = samples.map((s) => s.workersKiB[pid]!);
      const atTenThousand = samples.find((s) => s.responses >= Math.min(settings.sampleEvery, settings.requests))
        ?.workersKiB[pid];
      return [
        pid,
        {
          startMiB: mib(series[0]),
          endMiB: mib(series.at(-1)),
          maxMiB: mib(Math.max(...series)),
          peakMiB: mib(peaks[pid]),
          growthAfterFirstSampleMiB: mib(series.at(-1)! - atTenThousand!),
        },
      ];
    }),
  );
  const report = {
    date: new Date().toISOString().slice(0, 10),
    store: 'sqlite',
    what: 'resident set size (VmRSS) of each varsetd worker over mixed reads; VmHWM for the peak',
    machine: machine(),
    versions: {
      varsetd: varsetdVersion(),
      fastify: packageVersion('fastify'),
      autocannon: packageVersion('autocannon'),
    },
    settings,
    seed: seeded.counts,
    reads: mix.kinds.map((k) => k.name),
    /** Characters of every distinct cacheable response of the mix (and its key): more than the cache's limit means it was full. */
    cacheable: { responses: cacheable.length, mebiCharacters: Math.round((cacheableCharacters / 2 ** 20) * 10) / 10 },
    load: {
      responses,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      requestsPerSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    },
    samples,
    summary,
  };

  const header = ['responses', 's', 'primary MiB', ...workers.map((pid) => `worker ${pid} MiB`)];
  const rows = samples.map((s) => [
    s.responses.toLocaleString('en-US'),
    String(s.seconds),
    String(mib(s.primaryKiB)),
    ...workers.map((pid) => String(mib(s.workersKiB[pid]))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padStart(widths[i]!)).join(' | ') + ' |';
  console.log(
    `varsetd ${report.versions.varsetd}, ${settings.workers} workers, SQLite, response cache ${settings.responseCacheMb} MiB per worker, ${settings.connections} connections, node ${process.version}`,
  );
  console.log(
    `${responses.toLocaleString('en-US')} reads in ${report.load.seconds} s (${report.load.requestsPerSecond} req/s, p50 ${report.load.latencyMs.p50} ms, p99 ${report.load.latencyMs.p99} ms)\n`,
  );
  console.log(
    [line(header), '|' + widths.map((w) => '-'.repeat(w + 1) + ':').join('|') + '|', ...rows.map(line)].join('\n'),
  );
  console.log(
    `the mix's ${cacheable.length.toLocaleString('en-US')} distinct variable-set reads (those the response cache keeps) add up to ${report.cacheable.mebiCharacters} Mi characters; each worker keeps at most ${settings.responseCacheMb} Mi`,
  );
  for (const [pid, s] of Object.entries(summary))
    console.log(
      `worker ${pid}: ${s.startMiB} → ${s.endMiB} MiB (most ${s.maxMiB}, peak ${s.peakMiB}); after the first ${settings.sampleEvery.toLocaleString('en-US')} reads: ${s.growthAfterFirstSampleMiB! >= 0 ? '+' : ''}${s.growthAfterFirstSampleMiB} MiB`,
    );

  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const label = process.env.BENCH_LABEL;
  const file = path.join(dir, `${report.date}-worker-memory${label ? `-${label}` : ''}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log(`\nresults: ${path.relative(root, file)}`);
}

main()
  .then(async () => {
    await cleanupAll();
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    console.error('bench: FAILED:', error instanceof Error ? error.message : error);
    await cleanupAll();
    process.exit(1);
  });
