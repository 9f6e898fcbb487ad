/**
 * Where varsetd's CPU goes: reads the .cpuprofile files Node.js writes under --cpu-prof (one
 * per process: the primary and each worker) and attributes each sample's time to a category.
 *   node --import tsx bench/profile-summary.ts <dir or .cpuprofile>…
 *
 * A sample is walked from its innermost frame outwards; the first frame whose file names a
 * category takes it (so JSON.stringify called by the serializer is serialization, a pg parser
 * called from a Fastify hook is the driver). Samples with no such frame are V8's own
 * (garbage collector, program, idle) or "other" (varsetd's other code, Node.js internals).
 * Idle time is shown but left out of the shares.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Categories by the file of a frame, tried in this order. */
const CATEGORIES: Array<[string, RegExp]> = [
  [
    'request handling and hooks (fastify)',
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|fast-querystring|ajv)/,
  ],
  ['authentication and permissions (src/auth)', /\/(src|dist)\/auth\//],
  ["the cache's bookkeeping (src/cache)", /\/(src|dist)\/cache\//],
  ['query building (kysely)', /node_modules\/kysely\//],
  ["the driver's parsing (pg, pg-protocol)", /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+)\//],
  ['document building and serialization (src/jsonapi, serializers)', /\/(src|dist)\/jsonapi\/|serializ/],
  ['logging (pino)', /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//],
];

function categoryOf(stack: ProfileNode[]): string {
  for (const node of stack) {
    const url = node.callFrame.url;
    if (!url) continue;
    for (const [name, pattern] of CATEGORIES) if (pattern.test(url)) return name;
  }
  const leaf = stack[0]?.callFrame.functionName ?? '';
  if (leaf === '(idle)') return '(idle)';
  if (leaf === '(garbage collector)') return 'garbage collector';
  if (leaf === '(program)') return 'V8 and native (program)';
  return 'other (varsetd routes, services, stores; Node.js internals)';
}

function summarize(file: string): Map<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = new Map<number, string>();
  const times = new Map<string, number>();
  for (const [i, id] of profile.samples.entries()) {
    let category = stackOf.get(id);
    if (category === undefined) {
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
      category = categoryOf(stack);
      stackOf.set(id, category);
    }
    // timeDeltas[i] is the time between sample i-1 and sample i, in microseconds.
    times.set(category, (times.get(category) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return times;
}

function files(args: string[]): string[] {
  return args.flatMap((arg) =>
    fs.statSync(arg).isDirectory()
      ? fs
          .readdirSync(arg)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => path.join(arg, f))
      : [arg],
  );
}

function print(title: string, times: Map<string, number>): void {
  const busy = [...times].filter(([c]) => c !== '(idle)').reduce((t, [, us]) => t + us, 0);
  console.log(
    `\n${title}: ${(busy / 1000).toFixed(0)} ms busy, ${((times.get('(idle)') ?? 0) / 1000).toFixed(0)} ms idle`,
  );
  console.log('| category | ms | share of busy |');
  console.log('|----------|---:|--------------:|');
  for (const [category, us] of [...times].filter(([c]) => c !== '(idle)').sort((a, b) => b[1] - a[1]))
    console.log(`| ${category} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)} % |`);
}

const inputs = files(process.argv.slice(2));
if (inputs.length === 0) {
  console.error('usage: bench/profile-summary.ts <dir or .cpuprofile>…');
  process.exit(2);
}
const all = new Map<string, number>();
for (const file of inputs) {
  const times = summarize(file);
  print(path.basename(file), times);
  for (const [c, us] of times) all.set(c, (all.get(c) ?? 0) + us);
}
if (inputs.length > 1) print('all processes', all);
