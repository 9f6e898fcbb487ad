import type { Category } from '../variables/model.js';
import { compareCodePoints } from '../common/code-points.js';

/**
 * Variable precedence: which value of each variable a run of a workspace gets.
 *
 * A pure function over already-loaded candidates: no I/O, and it never reads a value, so
 * values may be sealed (encrypted) strings. Precedence follows HCP Terraform, highest first:
 *
 *   1  priority global sets
 *   2  priority project-scoped sets owned by the organization
 *   3  priority workspace-scoped sets owned by the organization
 *   4  priority project-scoped sets owned by a project
 *   5  priority workspace-scoped sets owned by a project
 *   6  run variables
 *  (7  the caller's TF_VAR_ environment: invisible to the server)
 *   8  workspace variables
 *   9  workspace-scoped sets owned by a project
 *  10  project-scoped sets owned by a project
 *  11  workspace-scoped sets owned by the organization
 *  12  project-scoped sets owned by the organization
 *  13  global sets
 * (14, 15 the configuration's *.auto.tfvars and terraform.tfvars: invisible to the server)
 *
 * Between sets of one level, the set whose name sorts first by Unicode code point wins.
 * A variable is identified by key and category together.
 */

/** How a set reaches the workspace: it is global, assigned to the workspace's project, or assigned to the workspace. */
export type VarsetScope = 'global' | 'project' | 'workspace';

/** Who owns a set: its organization, or one of the organization's projects. */
export type VarsetOwner = 'organization' | 'project';

export type PrecedenceLevel = 1 | 2 | 3 | 4 | 5 | 6 | 8 | 9 | 10 | 11 | 12 | 13;

/** What the resolver needs to know of a variable; everything else (value, id, hcl…) is carried along untouched. */
export interface CandidateVariable {
  key: string;
  category: Category;
}

export interface ApplicableVarset<V extends CandidateVariable> {
  id: string;
  name: string;
  owner: VarsetOwner;
  priority: boolean;
  /** The number of the set's version the variables are of (null: none yet). */
  version: number | null;
  /** Every way the set applies to the workspace (at least one). */
  scopes: readonly VarsetScope[];
  variables: readonly V[];
}

export interface ResolveInput<V extends CandidateVariable> {
  workspaceVariables: readonly V[];
  /** The run's variables, in the order given; they are Terraform input variables. */
  runVariables: readonly (V & { category: 'terraform' })[];
  varsets: readonly ApplicableVarset<V>[];
}

export interface VarsetSource {
  kind: 'varset';
  id: string;
  name: string;
  /** The scope the set's precedence was taken from (see `varsetLevel`). */
  scope: VarsetScope;
  owner: VarsetOwner;
  priority: boolean;
  version: number | null;
}

export type ValueSource = { kind: 'workspace' } | { kind: 'run' } | VarsetSource;

export interface SourcedValue<V extends CandidateVariable> {
  variable: V;
  source: ValueSource;
  level: PrecedenceLevel;
}

export interface ResolvedVariable<V extends CandidateVariable> {
  key: string;
  category: Category;
  winner: SourcedValue<V>;
  /** The values the winner beat, highest precedence first. */
  overridden: SourcedValue<V>[];
}

const PRIORITY_LEVELS: Record<VarsetOwner, Record<VarsetScope, PrecedenceLevel>> = {
  organization: { global: 1, project: 2, workspace: 3 },
  project: { global: 1, project: 4, workspace: 5 },
};
const REGULAR_LEVELS: Record<VarsetOwner, Record<VarsetScope, PrecedenceLevel>> = {
  organization: { global: 13, project: 12, workspace: 11 },
  project: { global: 13, project: 10, workspace: 9 },
};
export const RUN_LEVEL: PrecedenceLevel = 6;
export const WORKSPACE_LEVEL: PrecedenceLevel = 8;

/**
 * The level of a set and the scope it was taken from. A set can reach a workspace in more
 * than one way (assigned to the workspace and to its project; global and also assigned).
 * It still counts once, at the highest-precedence level any of its ways gives it: it does
 * apply through that way, and nothing would be gained by ranking it lower. For ordinary
 * sets that is the most specific way (workspace over project over global); for priority
 * sets, which are meant to enforce values from above, it is the broadest.
 */
export function varsetLevel(set: Pick<ApplicableVarset<CandidateVariable>, 'owner' | 'priority' | 'scopes'>): {
  level: PrecedenceLevel;
  scope: VarsetScope;
} {
  const levels = set.priority ? PRIORITY_LEVELS[set.owner] : REGULAR_LEVELS[set.owner];
  let best: { level: PrecedenceLevel; scope: VarsetScope } | undefined;
  for (const scope of set.scopes) {
    const level = levels[scope];
    if (best === undefined || level < best.level) best = { level, scope };
  }
  if (best === undefined) throw new Error(`variable set ${JSON.stringify(set)} applies through no scope`);
  return best;
}

interface Contender<V extends CandidateVariable> extends SourcedValue<V> {
  /** Breaks ties inside one source; lower wins. */
  rank: number;
}

/**
 * For each key and category, the winning value and the values it overrode. The result
 * depends only on the candidates, not on the order the sets are given in; it is sorted by
 * key (code point order), then category.
 */
export function resolveVariables<V extends CandidateVariable>(input: ResolveInput<V>): ResolvedVariable<V>[] {
  const contenders: Contender<V>[] = [];
  // A run variable given twice counts as Terraform's command line does: the later one wins.
  input.runVariables.forEach((variable, i) => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- checked at run time too: a caller's types can lie
    if (variable.category !== 'terraform') throw new Error(`run variable ${variable.key} must be a terraform variable`);
    contenders.push({ variable, source: { kind: 'run' }, level: RUN_LEVEL, rank: -i });
  });
  for (const variable of input.workspaceVariables) {
    contenders.push({ variable, source: { kind: 'workspace' }, level: WORKSPACE_LEVEL, rank: 0 });
  }
  const seenSets = new Set<string>();
  for (const set of input.varsets) {
    if (seenSets.has(set.id))
      throw new Error(`variable set ${set.id} is given more than once; list its scopes instead`);
    seenSets.add(set.id);
    const { level, scope } = varsetLevel(set);
    const source: VarsetSource = {
      kind: 'varset',
      id: set.id,
      name: set.name,
      scope,
      owner: set.owner,
      priority: set.priority,
      version: set.version,
    };
    for (const variable of set.variables) contenders.push({ variable, source, level, rank: 0 });
  }

  const byVariable = new Map<string, Contender<V>[]>();
  for (const contender of contenders) {
    const id = `${contender.variable.category}\u0000${contender.variable.key}`;
    const group = byVariable.get(id);
    if (group) group.push(contender);
    else byVariable.set(id, [contender]);
  }

  const resolved: ResolvedVariable<V>[] = [];
  for (const group of byVariable.values()) {
    group.sort(compareContenders);
    const [winner, ...overridden] = group.map(({ variable, source, level }) => ({ variable, source, level }));
    resolved.push({ key: winner!.variable.key, category: winner!.variable.category, winner: winner!, overridden });
  }
  return resolved.sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.category, b.category));
}

function compareContenders<V extends CandidateVariable>(a: Contender<V>, b: Contender<V>): number {
  if (a.level !== b.level) return a.level - b.level;
  if (a.source.kind === 'varset' && b.source.kind === 'varset') {
    // Names are unique in an organization; the id only keeps the order total.
    const order = compareCodePoints(a.source.name, b.source.name) || compareCodePoints(a.source.id, b.source.id);
    if (order !== 0) return order;
  }
  // Only run variables can repeat a key within one source; the store keeps keys unique in a set and in a workspace.
  return a.rank - b.rank;
}
