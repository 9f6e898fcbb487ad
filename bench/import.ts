/**
 * The import's benchmark: `npm run bench:import` (SQLite).
 *
 * Seeds the 1k organization of `npm run bench` (1,000 sets, 200 of them global, with their
 * variables and their workspace and project assignments; 50 projects; 5,000 workspaces, unless
 * BENCH_IMPORT_WORKSPACES says otherwise) into an in-process varsetd serving HTTP, gives every
 * workspace two variables of its own, and exports it with `varsetd export --out DIR`. Then it
 * times `varsetd import` (the built command, dist/main.js, as a user runs it) into an empty
 * SQLite store, once from the export folder and once from the varsetd over HTTP, each followed by
 * a second run that finds nothing to change; it checks every report counts the 1,000 sets.
 * Writes bench/results/<date>-sqlite-import.json.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore } from '../src/db/connect.js';
import { randomAlphanumeric } from '../src/common/ids.js';
import { Api } from './api.js';
import { machine, packageVersion, varsetdVersion } from './report.js';
import { analyze, MEDIUM, seedOrganization, seedWorkspaceVariables } from './seed.js';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TOKEN = `bench-admin-${randomAlphanumeric(32)}`;
const ORGANIZATION = 'bench-import';
const shape = { ...MEDIUM, workspaces: Number(process.env.BENCH_IMPORT_WORKSPACES || MEDIUM.workspaces) };

/** `varsetd ARGS` as built, on the SQLite store of `dataDir`; fails unless it exits 0. */
async function varsetd(dataDir: string, args: string[]): Promise<{ stdout: string; ms: number }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(VARSETD_|DATABASE_URL$|LOG_LEVEL$)/.test(name)),
  );
  const started = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'dist/main.js'), ...args], {
    env: { ...env, VARSETD_DATA_DIR: dataDir },
    maxBuffer: 512 * 1024 * 1024,
  });
  return { stdout, ms: performance.now() - started };
}

interface ImportRun {
  source: string;
  run: 'first' | 'second';
  seconds: number;
  sets: Record<string, number>;
  workspaces: Record<string, number>;
  projects: Record<string, number>;
  variables: number;
  assignments: number;
  workspaceVariables: number;
}

const countBy = (items: { result: string }[]) =>
  items.reduce<Record<string, number>>(
    (counts, { result }) => ({ ...counts, [result]: (counts[result] ?? 0) + 1 }),
    {},
  );

/** Times two imports of SOURCE into a fresh store: the first writes everything, the second nothing. */
async function timeImport(workDir: string, name: string, from: string[]): Promise<ImportRun[]> {
  const target = path.join(workDir, `target-${name}`);
  fs.mkdirSync(target);
  await varsetd(target, ['organizations', 'create', ORGANIZATION, '--email', 'ops@example.com']);
  const runs: ImportRun[] = [];
  for (const run of ['first', 'second'] as const) {
    const { stdout, ms } = await varsetd(target, ['import', ...from, '--organization', ORGANIZATION, '--json']);
    const report = JSON.parse(stdout);
    const sets: { result: string; variables: unknown[]; assignments: unknown[] }[] = report.sets;
    const result: ImportRun = {
      source: name,
      run,
      seconds: Number((ms / 1000).toFixed(2)),
      sets: countBy(sets),
      workspaces: countBy(report.workspaces),
      projects: countBy(report.projects),
      variables: sets.reduce((n, set) => n + set.variables.length, 0),
      assignments: sets.reduce((n, set) => n + set.assignments.length, 0),
      workspaceVariables: report['workspace-variables'].length,
    };
    const expected = run === 'first' ? 'created' : 'unchanged';
    if (result.sets[expected] !== shape.sets || Object.keys(result.sets).length !== 1)
      throw new Error(
        `the ${run} import from ${name} reported ${JSON.stringify(result.sets)}, not ${shape.sets} ${expected}`,
      );
    console.error(
      `import from ${name}, ${run} run: ${result.seconds} s (sets ${JSON.stringify(result.sets)}, workspaces ${JSON.stringify(result.workspaces)}, ${result.variables} variables, ${result.assignments} assignments, ${result.workspaceVariables} workspace variables)`,
    );
    runs.push(result);
  }
  return runs;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/main.js'))) throw new Error('build varsetd first: npm run build');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'varsetd-import-bench-'));
  const sourceDir = path.join(workDir, 'source');
  fs.mkdirSync(sourceDir);
  const store = await openStore({ dataDir: sourceDir });
  await migrate(store);
  await ensureAdminToken(store, TOKEN, sourceDir);
  const app = await buildApp({ store, publicUrl: 'http://127.0.0.1:1', logger: false });
  try {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const seeded = await seedOrganization(new Api(address, TOKEN), store, ORGANIZATION, shape, 1);
    const workspaceVariables = await seedWorkspaceVariables(store, seeded.id, [
      { key: 'instance_count', value: '2', category: 'terraform', hcl: true },
      { key: 'TF_LOG', value: 'info', category: 'env', hcl: false },
    ]);
    await analyze(store);
    console.error(`bench: seeded ${JSON.stringify({ ...seeded.counts, workspaceVariables })}`);

    const exportDir = path.join(workDir, 'export');
    const exported = await varsetd(sourceDir, ['export', '--organization', ORGANIZATION, '--out', exportDir]);
    console.error(
      `bench: exported ${fs.readdirSync(exportDir).length} documents in ${(exported.ms / 1000).toFixed(2)} s`,
    );
    const tokenFile = path.join(workDir, 'token');
    fs.writeFileSync(tokenFile, TOKEN, { mode: 0o600 });

    const loadBefore = os.loadavg();
    const runs = [
      ...(await timeImport(workDir, 'export folder', ['--from', exportDir])),
      ...(await timeImport(workDir, 'varsetd over HTTP', ['--from', address, '--token-file', tokenFile])),
    ];

    const date = new Date().toISOString().slice(0, 10);
    const report = {
      date,
      store: 'sqlite',
      machine: machine(),
      // Other work on the machine slows every run down: the load average (1, 5, 15 minutes) before and after.
      loadAverage: {
        before: loadBefore.map((n) => Number(n.toFixed(1))),
        after: os.loadavg().map((n) => Number(n.toFixed(1))),
      },
      versions: { varsetd: varsetdVersion(), node: process.version, kysely: packageVersion('kysely') },
      seed: { ...seeded.counts, workspaceVariables },
      exportSeconds: Number((exported.ms / 1000).toFixed(2)),
      imports: runs,
    };
    const file = path.join(
      root,
      'bench/results',
      `${date}-sqlite-import${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : ''}.json`,
    );
    fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
    console.error(`bench: wrote ${file}`);
  } finally {
    await app.close();
    await store.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
