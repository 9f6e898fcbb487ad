/** The results table on stdout and the JSON file in bench/results/. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult, LoadSettings } from './load.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ScenarioResult {
  id: number;
  name: string;
  /** The requests of the scenario, as `METHOD path`. */
  requests: string[];
  varsetd: LoadResult;
  floor: LoadResult;
  /** varsetd's throughput divided by the floor's. */
  throughputRatio: number;
  /** The floor's CPU time per request divided by varsetd's: the throughput ratio were each given a core of its own. */
  cpuRatio?: number;
  /** A read answered by the least read (bench/least-read.ts): varsetd's statements and document, nothing around them. */
  leastRead?: LoadResult;
  /** The least read's throughput divided by the floor's: the most any miss of varsetd's could reach. */
  leastReadRatio?: number;
  /** Statements varsetd runs per request (in order of `requests`), and for the larger organization where measured. */
  queriesPerRequest: number[];
  /** The same requests answered once more (reads come from the response cache then, as they do under load). */
  queriesPerRepeatedRequest?: number[];
  queriesPerRequestLarge?: number[];
  target?: string;
  note?: string;
}

export interface LatencyRatio {
  p50: number;
  p99: number;
  mean: number;
}

export interface Report {
  date: string;
  store: 'sqlite' | 'postgres';
  machine: Record<string, unknown>;
  versions: Record<string, string>;
  settings: LoadSettings & { logLevel: string; responseCacheMb: number };
  seed: Record<string, unknown>;
  scenarios: ScenarioResult[];
  /** Scenario 6's latency over scenario 2's: the cost of ten times the data. */
  growth?: LatencyRatio;
  /** Scenario 6's latency over scenario 7's (scenario 2 measured once the 10k organization is seeded): the larger organization's cost in the same database. */
  growthInOneDatabase?: LatencyRatio;
  memory: Record<string, number | undefined>;
}

export function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

export function packageVersion(name: string): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

export function varsetdVersion(): string {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version as string;
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no', 'src'], {
        cwd: root,
        encoding: 'utf8',
      }).trim() !== '';
    return `${version} (${commit}${dirty ? ', src modified' : ''})`;
  } catch {
    return version;
  }
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function table(report: Report): string {
  const header = [
    '#',
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU ms/req',
    'floor req/s',
    'floor p50',
    'floor p99',
    'floor CPU',
    'ratio',
    'CPU ratio',
    'least ratio',
    'queries',
    'target',
  ];
  const ms = (n: number | undefined) => (n === undefined ? '?' : fmt(n, 3));
  // On PostgreSQL, the cluster's CPU per request and the whole bill (varsetd's + PostgreSQL's).
  const withDatabase = report.scenarios.some((s) => s.varsetd.databaseCpuMsPerRequest !== undefined);
  if (withDatabase) header.splice(6, 0, 'PG CPU ms/req', 'total CPU ms/req');
  const total = (r: LoadResult) =>
    r.cpuMsPerRequest === undefined || r.databaseCpuMsPerRequest === undefined
      ? undefined
      : r.cpuMsPerRequest + r.databaseCpuMsPerRequest;
  const rows = report.scenarios.map((s) => [
    String(s.id),
    s.name,
    fmt(s.varsetd.requestsPerSecond),
    fmt(s.varsetd.latency.p50, 2),
    fmt(s.varsetd.latency.p99, 2),
    ms(s.varsetd.cpuMsPerRequest),
    ...(withDatabase ? [ms(s.varsetd.databaseCpuMsPerRequest), ms(total(s.varsetd))] : []),
    fmt(s.floor.requestsPerSecond),
    fmt(s.floor.latency.p50, 2),
    fmt(s.floor.latency.p99, 2),
    ms(s.floor.cpuMsPerRequest),
    fmt(s.throughputRatio, 2),
    s.cpuRatio === undefined ? '?' : fmt(s.cpuRatio, 2),
    s.leastReadRatio === undefined ? '' : fmt(s.leastReadRatio, 2),
    s.queriesPerRequest.join('+') +
      (s.queriesPerRepeatedRequest && s.queriesPerRepeatedRequest.join('+') !== s.queriesPerRequest.join('+')
        ? ` (again: ${s.queriesPerRepeatedRequest.join('+')})`
        : '') +
      (s.queriesPerRequestLarge ? ` (large: ${s.queriesPerRequestLarge.join('+')})` : ''),
    s.target ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    '| ' + cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  const out = [
    line(header),
    '|' + widths.map((w, i) => (i <= 1 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|',
    ...rows.map(line),
  ];
  const ratio = (r: LatencyRatio) => `p50 ${fmt(r.p50, 2)}×, p99 ${fmt(r.p99, 2)}×, mean ${fmt(r.mean, 2)}×`;
  if (report.growth) out.push('', `growth (scenario 6 / scenario 2 latency): ${ratio(report.growth)} (target ≤ 1.3×)`);
  if (report.growthInOneDatabase)
    out.push(`growth in one database (scenario 6 / scenario 7 latency): ${ratio(report.growthInOneDatabase)}`);
  for (const [name, kib] of Object.entries(report.memory))
    if (kib !== undefined) out.push(`${name}: ${fmt(kib / 1024, 1)} MiB`);
  return out.join('\n');
}

export function writeReport(report: Report, label: string | undefined): string {
  const dir = path.join(root, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${report.date}-${report.store}${label ? `-${label}` : ''}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}
