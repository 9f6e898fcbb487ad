import type { Context } from '../auth/context.js';
import { NotFound } from '../common/errors.js';
import type { KeyCandidate, VariableChanges } from '../variables/model.js';
import { deleteVariable, prepareVariableUpdate, saveVariable } from '../variables/service.js';
import { variablesOf, type VarsetCommand } from './model.js';
import { changeVarset, newVariables } from './set-writes.js';
import { existingSetWrite, setEvent, writeVarset } from './write-path.js';

/** A whole change of an existing set: `command` as an update takes it (attributes, assignments, new variables), and its variables to change and to remove. */
export interface VarsetReplacement {
  command: VarsetCommand;
  updates: { id: string; changes: VariableChanges }[];
  deletions: string[];
}

/**
 * Replaces what a set is, for the command line (`varsetd import`): every part in one write, so
 * one version and one audit event, and a refusal of any part leaves the set as it was. The
 * removals come first, so that a variable added may take the key of one removed.
 */
export async function replaceVarset(ctx: Context, id: string, replacement: VarsetReplacement): Promise<void> {
  const variables = newVariables(replacement.command);
  await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'update'),
    apply: async (trx, before) => {
      const owner = variablesOf(before.varset);
      for (const variableId of replacement.deletions) {
        if (!(await deleteVariable(trx, owner, variableId))) throw new NotFound();
      }
      const held: KeyCandidate[] = [];
      for (const [n, { id: variableId, changes }] of replacement.updates.entries()) {
        const prepared = await prepareVariableUpdate(trx, ctx.sealer, owner, variableId, changes, `updates[${n}]`);
        await saveVariable(trx, prepared);
        held.push(prepared.candidate);
      }
      const varset = await changeVarset(ctx, trx, before.varset, replacement.command, variables, held);
      return { result: undefined, before, event: () => setEvent(varset, 'update') };
    },
  });
}
