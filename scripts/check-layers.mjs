// Reads dependency-cruiser's JSON (stdin) and fails on any broken rule of .dependency-cruiser.cjs
// and on any cycle between the folders of ROOT (default src): every module counts as its top
// folder, except route files (routes.ts, *-routes.ts) and the files directly in ROOT, which are
// nodes of their own. Only app.ts imports routes, so they sit above every folder: a route may use
// src/includes.ts, which uses its own feature, without closing a cycle.
//
//   depcruise src ui --config .dependency-cruiser.cjs --output-type json | node scripts/check-layers.mjs [ROOT]
const root = (process.argv[2] ?? 'src').replace(/\/$/, '') + '/';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = Buffer.concat(chunks).toString('utf8');
if (!input.startsWith('{')) {
  console.error('check-layers: dependency-cruiser gave no JSON (its error is above)');
  process.exit(1);
}
const result = JSON.parse(input);

function nodeOf(path) {
  if (!path.startsWith(root)) return undefined;
  const rest = path.slice(root.length);
  if (!rest.includes('/') || /(^|[/-])routes\.[cm]?[jt]sx?$/.test(rest)) return rest;
  return rest.slice(0, rest.indexOf('/'));
}

const edges = new Map();
for (const module of result.modules) {
  const from = nodeOf(module.source);
  if (from === undefined) continue;
  for (const dependency of module.dependencies) {
    const to = nodeOf(dependency.resolved);
    if (to === undefined || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} → ${dependency.resolved}`);
  }
}

// Tarjan's strongly connected components: each with more than one node is a cycle of folders.
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

const violations = result.summary.violations.filter((v) => v.rule.severity === 'error');
for (const v of violations) console.error(`error ${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name ?? c).join(' → ')})` : ''}`);
for (const cycle of cycles) {
  console.error(`error no-folder-cycle: ${cycle.join(', ')} import each other`);
  const members = new Set(cycle);
  for (const from of cycle) for (const [to, example] of edges.get(from) ?? []) if (members.has(to)) console.error(`  ${from} → ${to}: ${example}`);
}
if (violations.length || cycles.length) {
  console.error(`\n✘ ${violations.length} dependency violations, ${cycles.length} folder cycles`);
  process.exit(1);
}
console.log(`✔ no dependency violations, no folder cycles (${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies cruised)`);
