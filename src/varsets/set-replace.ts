import type { Context } from '../auth/context.js';
import { Invalid, NotFound } from '../common/errors.js';
import type { Trx } from '../db/transaction.js';
import type { KeyCandidate, VariableChanges, VariablePlace } from '../variables/model.js';
import { deleteVariable, prepareVariableUpdate, saveVariable, type NewVariable } from '../variables/service.js';
import { variablesOf, type Varset, type VarsetCommand, type VarsetView } from './model.js';
import { changeVarset, newVariables } from './set-writes.js';
import { loadView, readableBy } from './views.js';
import type { FoundState } from './state-store.js';
import type { RecordedVersion } from './versions/store.js';
import { existingSetWrite, setEvent, writeVarset } from './write-path.js';

/**
 * A whole change of an existing set: `command` as an update takes it (attributes, assignments,
 * new variables), and its variables to change and to remove, each where a refusal names it
 * (`updates[n]` when not given).
 */
export interface VarsetReplacement {
  command: VarsetCommand;
  updates: { id: string; changes: VariableChanges; at?: VariablePlace }[];
  deletions: string[];
}

/**
 * Replaces what a set is, for the command line (`varsetd import`): every part in one write, so
 * one version and one audit event, and a refusal of any part leaves the set as it was.
 */
export async function replaceVarset(ctx: Context, id: string, replacement: VarsetReplacement): Promise<void> {
  const variables = newVariables(replacement.command);
  await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'update'),
    apply: async (trx, before) => {
      const varset = await applyReplacement(ctx, trx, before, replacement, variables);
      return { result: undefined, before, event: () => setEvent(varset, 'update') };
    },
  });
}

/** A write of several variables of a set: those to add, change and remove, each where a refusal names it. */
export type VariableWriteCommand =
  | { action: 'add'; changes: VariableChanges; at: VariablePlace }
  | { action: 'update'; id: string; changes: VariableChanges; at: VariablePlace }
  | { action: 'delete'; id: string; at: VariablePlace };

/**
 * Adds, changes and removes several variables of a set in one write (`POST
 * /varsets/:id/actions/write-variables`): every rule of a variable's own write holds for each,
 * key and category stay unique over the set as it will be, the global rule is checked for all
 * of them together, and a refusal of any leaves the set as it was. One version, one audit event.
 */
export async function writeVarsetVariables(
  ctx: Context,
  id: string,
  writes: VariableWriteCommand[],
): Promise<{ view: VarsetView; version: RecordedVersion | null }> {
  const named = new Map<string, VariablePlace>();
  for (const write of writes) {
    if (write.action === 'add') continue;
    if (named.has(write.id)) throw new Invalid(`${write.at}.id`, `variable ${write.id} is written twice`);
    named.set(write.id, write.at);
  }
  const replacement: VarsetReplacement = {
    command: { variables: writes.flatMap((w) => (w.action === 'add' ? [{ changes: w.changes, at: w.at }] : [])) },
    updates: writes.flatMap((w) => (w.action === 'update' ? [{ id: w.id, changes: w.changes, at: w.at }] : [])),
    deletions: writes.flatMap((w) => (w.action === 'delete' ? [w.id] : [])),
  };
  const variables = newVariables(replacement.command);
  const { result, version } = await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'update'),
    apply: async (trx, before) => {
      const varset = await applyReplacement(ctx, trx, before, replacement, variables);
      const view = readableBy(ctx.subject, [await loadView(trx, varset)])[0]!;
      return { result: view, before, event: () => setEvent(varset, 'update') };
    },
  });
  return { view: result, version };
}

/**
 * A replacement's change, inside its write. The removals come first, so that a variable added
 * or changed may take the key of one removed; then the changes, then the additions, each
 * checked against the set as the ones before left it.
 */
async function applyReplacement(
  ctx: Context,
  trx: Trx,
  before: FoundState,
  replacement: VarsetReplacement,
  variables: NewVariable[],
): Promise<Varset> {
  const owner = variablesOf(before.varset);
  for (const variableId of replacement.deletions) {
    if (!(await deleteVariable(trx, owner, variableId))) throw new NotFound();
  }
  const held: KeyCandidate[] = [];
  for (const [n, { id: variableId, changes, at }] of replacement.updates.entries()) {
    const prepared = await prepareVariableUpdate(trx, ctx.sealer, owner, variableId, changes, at ?? `updates[${n}]`);
    await saveVariable(trx, prepared);
    held.push(prepared.candidate);
  }
  return changeVarset(ctx, trx, before.varset, replacement.command, variables, held);
}
