// Reads dependency-cruiser's JSON (stdin) and fails on any broken rule of .dependency-cruiser.cjs
// and on any cycle between the folders of ROOT (default src), each counted as a whole: a module
// counts as its top folder, and again as its folder at each depth below (so src/varsets and
// src/varsets/versions must not import each other either). Files directly in ROOT are nodes of
// their own. It also refuses a trigger in a migration not yet released (see `triggers` below).
//
//   depcruise src ui --config .dependency-cruiser.cjs --output-type json | node scripts/check-layers.mjs [ROOT]
import { existsSync, readFileSync } from 'node:fs';

const root = (process.argv[2] ?? 'src').replace(/\/$/, '') + '/';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks).toString('utf8');
if (!input.startsWith('{')) {
  console.error('check-layers: dependency-cruiser gave no JSON (its error is above)');
  process.exit(1);
}
const result = JSON.parse(input);

/** The folder `path` is in, as deep as `depth` folders below ROOT; a file directly in ROOT is its own node. */
function nodeOf(path, depth) {
  if (!path.startsWith(root)) return undefined;
  const parts = path.slice(root.length).split('/');
  if (parts.length === 1) return parts[0];
  return parts.slice(0, Math.min(depth, parts.length - 1)).join('/');
}

const deepest = Math.max(
  ...result.modules.map((module) =>
    module.source.startsWith(root) ? module.source.slice(root.length).split('/').length - 1 : 0,
  ),
);

/** For each node, the nodes it imports, each with the first import that does. */
function edgesAt(depth) {
  const edges = new Map();
  for (const module of result.modules) {
    const from = nodeOf(module.source, depth);
    if (from === undefined) continue;
    for (const dependency of module.dependencies) {
      const to = nodeOf(dependency.resolved, depth);
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return edges;
}

// Tarjan's strongly connected components: each with more than one node is a cycle of folders.
function cyclesOf(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const cycles = [];
  function visit(node) {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  }
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const cycles = [];
const seen = new Set();
for (let depth = 1; depth <= deepest; depth++) {
  const edges = edgesAt(depth);
  for (const cycle of cyclesOf(edges)) {
    const name = cycle.join(', ');
    if (seen.has(name)) continue;
    seen.add(name);
    const members = new Set(cycle);
    const examples = cycle.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => members.has(to))
        .map(([to, example]) => `  ${from} → ${to}: ${example}`),
    );
    cycles.push({ name, examples });
  }
}

// A trigger is a feature reacting to another's writes where no code of the feature shows it.
// Features react through the registry of domain events (src/events/registry.ts); the triggers
// of released migrations stay (a rolling upgrade's older servers rely on them), and the one that
// crosses features is declared by its feature there. A new migration adds none, but for one
// kind that is no reaction: an expand migration's trigger that rewrites only the row being
// updated, so that an older server's writes keep a new column right while both serve (a rolling
// upgrade, docs/deployment.md#upgrading). Each is named here; a later contract migration drops it.
const FOR_OLDER_SERVERS = new Set(['0020_value_needed.expand']);
const migrations = `${root}db/migrations/`;
const releasedFile = `${migrations}released.json`;
const released = existsSync(releasedFile) ? Object.keys(JSON.parse(readFileSync(releasedFile, 'utf8'))) : [];
const triggers = result.modules
  .map((module) => module.source)
  .filter((source) => source.startsWith(migrations) && /^\d{4}_[^/]+\.ts$/.test(source.slice(migrations.length)))
  .filter((source) => {
    const name = source.slice(migrations.length).replace(/\.ts$/, '');
    return !released.includes(name) && !FOR_OLDER_SERVERS.has(name);
  })
  .filter((source) => /\bcreate\s+(or\s+replace\s+)?(constraint\s+)?trigger\b/i.test(readFileSync(source, 'utf8')));
for (const source of triggers)
  console.error(`error no-new-triggers: ${source} creates a trigger; react through the registry of domain events`);

const violations = result.summary.violations.filter((v) => v.rule.severity === 'error');
for (const v of violations)
  console.error(
    `error ${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name ?? c).join(' → ')})` : ''}`,
  );
for (const { name, examples } of cycles) {
  console.error(`error no-folder-cycle: ${name} import each other`);
  for (const example of examples) console.error(example);
}
if (violations.length || cycles.length || triggers.length) {
  console.error(
    `\n✘ ${violations.length} dependency violations, ${cycles.length} folder cycles, ${triggers.length} new triggers`,
  );
  process.exit(1);
}
console.log(
  `✔ no dependency violations, no folder cycles (${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies cruised)`,
);
