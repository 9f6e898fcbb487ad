import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '../auth/context.js';
import { can } from '../auth/decisions.js';
import { compareCodePoints } from '../common/code-points.js';
import { locationOfWorkspace } from '../common/location.js';
import type { Trx } from '../db/transaction.js';
import type { Page } from '../common/page.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Category, Variable } from '../variables/model.js';
import type { ImpactField } from './model.js';
import { loadCandidatesOfReach, variableIdentity, type Candidates, type Reach } from './load.js';
import type { ReachedWorkspace } from './reach-store.js';
import {
  resolveVariables,
  type PrecedenceLevel,
  type ResolvedVariable,
  type SourcedValue,
  type ValueSource,
} from './resolve.js';

/**
 * The impact of a write to a set before it is made: which workspaces would get which other
 * effective variables. The write runs as it would (its permission, its checks, its errors),
 * in its transaction; the preview reads, inside it, every candidate value of the workspaces
 * the set reaches before the write and after, and the write path takes the write back. Each workspace is
 * resolved before and after by the one resolver of effective variables.
 */

/** A value of an effective variable as a preview shows it; `value` is null when sensitive or when the caller may not read the workspace's variables. */
export interface ImpactValue {
  variableId: string;
  value: string | null;
  hcl: boolean;
  sensitive: boolean;
  source: ValueSource;
  level: PrecedenceLevel;
}

export interface VariableImpact {
  key: string;
  category: Category;
  action: 'added' | 'removed' | 'changed';
  /** For `changed`: what changed, in the order of IMPACT_FIELDS. */
  fields: ImpactField[];
  before: ImpactValue | null;
  after: ImpactValue | null;
}

export interface WorkspaceImpact {
  workspace: ReachedWorkspace;
  /** Whether the caller may read the workspace's variables; when not, no value is shown. */
  variablesReadable: boolean;
  changes: VariableImpact[];
}

export interface Preview {
  reachedBefore: number;
  reachedAfter: number;
  /** Every affected workspace; `impacts` is the page asked for. */
  total: number;
  impacts: WorkspaceImpact[];
}

/** What the set reaches before and after a write, read in the write's transaction, which is then taken back. */
class ReachWatcher {
  varsetId: string | undefined;
  before: Reach | undefined;
  after: Reach | undefined;
}

/** The preview a write of a set is made for, if it is made for one: only that write's reactions read for it. */
const previewing = new AsyncLocalStorage<ReachWatcher>();

/** Before a write of a set (its reaction to 'varset.writing'): what the set reaches, if the write is a preview's; nothing otherwise. */
export async function readBeforeWrite({ trx, varsetId }: { trx: Trx; varsetId: string }): Promise<void> {
  const watcher = previewing.getStore();
  if (!watcher) return;
  watcher.varsetId = varsetId;
  watcher.before = await loadCandidatesOfReach(trx, varsetId);
}

/** After a write of a set (its reaction to 'varset.written'): what the set reaches, if the write is a preview's. */
export async function readAfterWrite({ trx, varsetId }: { trx: Trx; varsetId: string }): Promise<void> {
  const watcher = previewing.getStore();
  if (watcher) watcher.after = await loadCandidatesOfReach(trx, varsetId);
}

/** What a previewed write read, of its set, before and after it. */
interface Seen {
  varsetId: string;
  before: Reach;
  after: Reach;
}

/**
 * Previews `write`, a write of a set made with the context it is given: answers its error as
 * the write would, or the workspaces whose effective variables it would change (one page of
 * them, ordered by name then id) with the number the set reaches before and after.
 */
export async function previewWrite(
  ctx: Context,
  write: (ctx: Context) => Promise<unknown>,
  page: Page,
): Promise<Preview> {
  const watcher = new ReachWatcher();
  await previewing.run(watcher, () => write({ ...ctx, takeBack: true }));
  const { varsetId, before, after } = watcher;
  if (varsetId === undefined || !before || !after)
    throw new Error('a previewed write did not go through the write path of sets');
  const impacts = impactsOf(ctx, { varsetId, before, after });
  const start = (page.number - 1) * page.size;
  return {
    reachedBefore: before.workspaces.size,
    reachedAfter: after.workspaces.size,
    total: impacts.length,
    impacts: impacts.slice(start, start + page.size),
  };
}

/** Candidates without a set: what a workspace had before a set reached it, or has once it no longer does. */
const without = (candidates: Candidates, varsetId: string): Candidates => ({
  ...candidates,
  varsets: candidates.varsets.filter((set) => set.id !== varsetId),
});

const resolve = (candidates: Candidates) => resolveVariables<Variable>({ ...candidates, runVariables: [] });

/**
 * Every affected workspace, by name then id. The write changes only its own set: only the
 * variables the set holds before or after it can change, and a workspace the set reaches on
 * one side only had, on the other, the same candidates without the set.
 */
function impactsOf(ctx: Context, { varsetId, before, after }: Seen): WorkspaceImpact[] {
  const identities = new Set([...before.variablesOf(varsetId), ...after.variablesOf(varsetId)].map(variableIdentity));
  const was = before.candidates(identities);
  const will = after.candidates(identities);
  const opened = openedValues(ctx.sealer);
  const impacts: WorkspaceImpact[] = [];
  for (const id of new Set([...before.workspaces.keys(), ...after.workspaces.keys()])) {
    const reachedBefore = before.workspaces.has(id);
    const reachedAfter = after.workspaces.has(id);
    const workspace = (after.workspaces.get(id) ?? before.workspaces.get(id))!;
    const variablesReadable = can(ctx.subject, 'workspace:read-variables', locationOfWorkspace(workspace));
    const changes = compareResolutions(
      resolve(reachedBefore ? was(id) : without(will(id), varsetId)),
      resolve(reachedAfter ? will(id) : without(was(id), varsetId)),
      opened,
      variablesReadable,
    );
    if (changes.length) impacts.push({ workspace, variablesReadable, changes });
  }
  return impacts.sort(
    (a, b) =>
      compareCodePoints(a.workspace.name, b.workspace.name) || compareCodePoints(a.workspace.id, b.workspace.id),
  );
}

/** A value's plain text: sensitive values are opened, once each, to be compared and never shown. */
function openedValues(sealer: Sealer): (variable: Variable) => string {
  const opened = new Map<string, string>();
  return (variable) => {
    if (!variable.sensitive) return variable.value;
    let value = opened.get(variable.value);
    if (value === undefined) opened.set(variable.value, (value = sealer.open(variable.value)));
    return value;
  };
}

function sameSource(a: SourcedValue<Variable>, b: SourcedValue<Variable>): boolean {
  const setOf = (source: ValueSource) => (source.kind === 'varset' ? source.id : null);
  return a.level === b.level && a.source.kind === b.source.kind && setOf(a.source) === setOf(b.source);
}

/** The winners that differ between two resolutions of one workspace, in the resolver's order (key, then category). */
function compareResolutions(
  was: ResolvedVariable<Variable>[],
  will: ResolvedVariable<Variable>[],
  plain: (v: Variable) => string,
  readable: boolean,
): VariableImpact[] {
  const shown = (winner: SourcedValue<Variable> | undefined): ImpactValue | null => {
    if (!winner) return null;
    const { variable, source, level } = winner;
    return {
      variableId: variable.id,
      value: variable.sensitive || !readable ? null : variable.value,
      hcl: variable.hcl,
      sensitive: variable.sensitive,
      source,
      level,
    };
  };
  const before = new Map(was.map((r) => [variableIdentity(r), r]));
  const after = new Map(will.map((r) => [variableIdentity(r), r]));
  const impacts: VariableImpact[] = [];
  for (const resolved of [...was, ...will.filter((r) => !before.has(variableIdentity(r)))]) {
    const b = before.get(variableIdentity(resolved))?.winner;
    const a = after.get(variableIdentity(resolved))?.winner;
    const fields: ImpactField[] = [];
    if (b && a) {
      if (plain(b.variable) !== plain(a.variable)) fields.push('value');
      if (!sameSource(b, a)) fields.push('source');
      if (b.variable.sensitive !== a.variable.sensitive) fields.push('sensitive');
      if (b.variable.hcl !== a.variable.hcl) fields.push('hcl');
      if (!fields.length) continue;
    }
    impacts.push({
      key: resolved.key,
      category: resolved.category,
      action: !b ? 'added' : !a ? 'removed' : 'changed',
      fields,
      before: shown(b),
      after: shown(a),
    });
  }
  return impacts.sort((x, y) => compareCodePoints(x.key, y.key) || compareCodePoints(x.category, y.category));
}
