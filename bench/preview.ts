/**
 * The impact preview's benchmark: `npm run bench:preview` (SQLite), or with DATABASE_URL=postgres://…
 * (a fresh database is created on that server and dropped afterwards).
 *
 * Seeds the 1k organization of `npm run bench` (5,000 workspaces, 1,000 sets) into an
 * in-process varsetd, gives every workspace two variables of its own, then times previews of
 * writes to sets that reach all 5,000 workspaces (and one on a project), each answered with its
 * first page: BENCH_PREVIEW_RUNS times each (10) after two unmeasured ones, with the number of
 * statements a preview runs. Writes bench/results/<date>-<store>-preview.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore } from '../src/db/connect.js';
import { QueryCounter } from '../src/db/query-counter.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { Api } from './api.js';
import { freshPostgresDatabase } from './processes.js';
import { machine, packageVersion, varsetdVersion } from './report.js';
import { analyze, MEDIUM, seedOrganization, seedWorkspaceVariables } from './seed.js';

const TOKEN = `bench-admin-${randomAlphanumeric(32)}`;
const RUNS = Math.max(1, Number(process.env.BENCH_PREVIEW_RUNS || 10));

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-preview-bench-'));
  const adminUrl = process.env.DATABASE_URL || undefined;
  const postgres = adminUrl ? await freshPostgresDatabase(adminUrl, 'varsetd_preview') : undefined;
  const store = await openStore({ databaseUrl: postgres?.url, dataDir: workDir });
  await migrate(store);
  await ensureAdminToken(store, TOKEN, workDir);
  const counter = new QueryCounter();
  const app = await buildApp({
    store: { ...store, db: store.db.withPlugin(counter) },
    publicUrl: 'http://127.0.0.1:1',
    logger: false,
  });
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const api = new Api(address, TOKEN);
    const seeded = await seedOrganization(api, store, 'bench-preview', MEDIUM, 1);
    const workspaceVariables = await seedWorkspaceVariables(store, seeded.id, [
      // One of them a key the seeded sets use too.
      { key: 'region', value: '"eu-west-1"', category: 'terraform', hcl: true },
      { key: 'TF_LOG', value: 'info', category: 'env', hcl: false },
    ]);
    await analyze(store);
    const org = seeded.name;

    const globalSet = (await api.get(`/api/v2/varsets/${seeded.globalSetId}?include=vars`)).body;
    const variable = globalSet.included[0];
    const projectSet = (
      await api.get(`/api/v2/workspaces/${seeded.listWorkspaceId}/varsets?page%5Bsize%5D=100`)
    ).body.data.find((s: any) => s.attributes['project-count'] > 0 && !s.attributes.global);
    const projectVariable = (await api.get(`/api/v2/varsets/${projectSet.id}/relationships/vars`)).body.data[0];
    const setPreview = (id: string) => `/api/v2/varsets/${id}/actions/preview`;
    const scenarios = [
      {
        name: "a global set's variable gets a new value",
        path: setPreview(globalSet.data.id),
        body: { data: { type: 'vars', id: variable.id, attributes: { value: 'previewed' } } },
      },
      {
        name: 'a global set becomes a priority set',
        path: setPreview(globalSet.data.id),
        body: { data: { type: 'varsets', attributes: { priority: true } } },
      },
      {
        name: 'a global set is deleted',
        path: setPreview(globalSet.data.id),
        body: { data: { type: 'varsets', id: globalSet.data.id }, meta: { action: 'delete' } },
      },
      {
        name: 'a new global set of 5 variables, one of them a key every workspace holds',
        path: `/api/v2/organizations/${org}/varsets/actions/preview`,
        body: {
          data: {
            type: 'varsets',
            attributes: { name: 'bench-previewed', global: true, priority: true },
            relationships: {
              vars: {
                data: ['region', 'owner_new', 'tags_new', 'zone_new', 'size_new'].map((key) => ({
                  type: 'vars',
                  attributes: { key, value: 'v', category: 'terraform' },
                })),
              },
            },
          },
        },
      },
      {
        name: "a project set's variable gets a new value",
        path: setPreview(projectSet.id),
        body: { data: { type: 'vars', id: projectVariable.id, attributes: { value: 'previewed' } } },
      },
    ];

    const results = [];
    for (const scenario of scenarios) {
      const times: number[] = [];
      let answer: any;
      let statements = 0;
      for (let run = -2; run < RUNS; run++) {
        counter.count = 0;
        const started = performance.now();
        answer = (await api.post(scenario.path, scenario.body)).body;
        const elapsed = performance.now() - started;
        statements = counter.count;
        if (run >= 0) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      const result = {
        name: scenario.name,
        request: `POST ${scenario.path}`,
        affectedWorkspaces: answer.meta.pagination['total-count'],
        reachedBefore: answer.meta['workspaces-reached-before'],
        reachedAfter: answer.meta['workspaces-reached-after'],
        statements,
        ms: {
          min: times[0]!,
          median: percentile(times, 50),
          p90: percentile(times, 90),
          max: times[times.length - 1]!,
        },
      };
      console.error(
        `${result.name}: ${result.affectedWorkspaces} affected (${result.reachedBefore} → ${result.reachedAfter} reached), ${statements} statements, median ${result.ms.median.toFixed(0)} ms, max ${result.ms.max.toFixed(0)} ms`,
      );
      results.push(result);
    }

    const storeKind = postgres ? 'postgres' : 'sqlite';
    const date = new Date().toISOString().slice(0, 10);
    const report = {
      date,
      store: storeKind,
      machine: machine(),
      versions: {
        varsetd: varsetdVersion(),
        node: process.version,
        fastify: packageVersion('fastify'),
        kysely: packageVersion('kysely'),
      },
      runs: RUNS,
      seed: { ...seeded.counts, workspaceVariables },
      scenarios: results,
    };
    const file = path.join(
      path.dirname(new URL(import.meta.url).pathname),
      'results',
      `${date}-${storeKind}-preview${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`,
    );
    fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
    console.error(`bench: wrote ${file}`);
  } finally {
    await app.close();
    await store.close();
    await postgres?.drop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
