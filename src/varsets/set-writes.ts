import type { Context } from '../auth/context.js';
import { ensure } from '../auth/decisions.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Invalid, blank } from '../common/errors.js';
import { getOrganization } from '../organizations/service.js';
import { newVariableFields, type KeyCandidate } from '../variables/model.js';
import type { Trx } from '../db/transaction.js';
import { insertVariables, listVariableKeys, prepareNewVariables, type NewVariable } from '../variables/service.js';
import { addAssignments, removeAssignments } from './assignment-store.js';
import {
  globalOrganizationOf,
  targetOf,
  variablesOf,
  type Varset,
  type VarsetCommand,
  type VarsetView,
} from './model.js';
import {
  assertAssignable,
  assertNameFree,
  assertNoGlobalConflict,
  assertNotGlobalWhenProjectOwned,
  assertOwnerProject,
} from './rules.js';
import {
  deleteVarset as deleteVarsetRow,
  insertVarset,
  setVariablesGlobal,
  updateVarset as updateVarsetRow,
} from './store.js';
import { loadView, readableBy } from './views.js';
import { NEW_SET } from './versions/record.js';
import { existingSetWrite, setEvent, writeVarset } from './write-path.js';

/** Creating, updating and deleting sets, each a write of the one write path (write-path.ts). */

/** The variables a request adds, checked for what the schema cannot say before anything is read. */
export function newVariables(command: VarsetCommand): NewVariable[] {
  return command.variables.map(({ changes, at }) => ({ fields: newVariableFields(changes, at), at }));
}

export async function createVarset(
  ctx: Context,
  organizationName: string,
  command: VarsetCommand,
): Promise<VarsetView> {
  if (command.name === undefined) throw blank('name');
  const name = command.name;
  const variables = newVariables(command);
  const organization = await getOrganization(ctx, organizationName);
  const id = newId('varset');
  const { result } = await writeVarset(ctx, {
    varsetId: id,
    organization: organization.id,
    action: 'create',
    open: async (trx): Promise<Varset> => {
      const { parent } = command;
      if (parent?.type === 'organizations' && parent.id !== organization.name) throw new NotFound();
      if (parent?.type === 'projects') await assertOwnerProject(trx, organization.id, parent.id);
      const timestamp = now();
      const varset: Varset = {
        id,
        organization_id: organization.id,
        organization_name: organization.name,
        project_id: parent?.type === 'projects' ? parent.id : null,
        name,
        description: command.description ?? '',
        global: command.global ?? false,
        priority: command.priority ?? false,
        created_at: timestamp,
        updated_at: timestamp,
      };
      ensure(ctx.subject, 'varsets:create', targetOf(varset));
      return varset;
    },
    apply: async (trx, varset) => {
      assertNotGlobalWhenProjectOwned(varset);
      await assertNameFree(trx, varset);
      await assertAssignable(trx, varset, 'workspaces', command.workspaceIds ?? []);
      await assertAssignable(trx, varset, 'projects', command.projectIds ?? []);
      const prepared = await prepareNewVariables(trx, ctx.sealer, variablesOf(varset), variables, varset.created_at);
      await assertNoGlobalConflict(
        trx,
        varset,
        prepared.map((p) => p.candidate),
      );

      await insertVarset(trx, varset);
      await insertVariables(trx, variablesOf(varset), prepared, globalOrganizationOf(varset));
      await addAssignments(trx, 'workspaces', varset.id, command.workspaceIds ?? []);
      await addAssignments(trx, 'projects', varset.id, command.projectIds ?? []);
      return {
        result: readableBy(ctx.subject, [await loadView(trx, varset)])[0]!,
        before: NEW_SET,
        event: () => setEvent(varset, 'create'),
      };
    },
  });
  return result;
}

/**
 * PUT and PATCH alike: attributes absent from the body keep their value (priority too: a
 * client that sends only what changes must not reset it), `workspaces` and `projects`
 * replace the assignments when present, and `vars` adds variables.
 */
export async function updateVarset(ctx: Context, id: string, command: VarsetCommand): Promise<VarsetView> {
  const variables = newVariables(command);
  const { result } = await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'update'),
    apply: async (trx, before) => {
      const varset = await changeVarset(ctx, trx, before.varset, command, variables);
      const view = readableBy(ctx.subject, [await loadView(trx, varset)])[0]!;
      return { result: view, before, event: () => setEvent(varset, 'update') };
    },
  });
  return result;
}

/**
 * An update's change of a set, inside its write: checks every rule, then writes the attributes,
 * the new variables and the assignments given. `held` are the variables of the set the write
 * changes besides (already saved), which the global rule checks too.
 */
export async function changeVarset(
  ctx: Context,
  trx: Trx,
  current: Varset,
  command: VarsetCommand,
  variables: NewVariable[],
  held: KeyCandidate[] = [],
): Promise<Varset> {
  if (command.parent) {
    const currentParent =
      current.project_id === null
        ? { type: 'organizations', id: current.organization_name }
        : { type: 'projects', id: current.project_id };
    if (command.parent.type !== currentParent.type || command.parent.id !== currentParent.id) {
      throw new Invalid('parent', 'the parent of a variable set cannot be changed');
    }
  }
  const varset: Varset = {
    ...current,
    name: command.name ?? current.name,
    description: command.description ?? current.description,
    global: command.global ?? current.global,
    priority: command.priority ?? current.priority,
    updated_at: now(),
  };
  assertNotGlobalWhenProjectOwned(varset);
  if (varset.name !== current.name) await assertNameFree(trx, varset);
  if (command.workspaceIds) await assertAssignable(trx, varset, 'workspaces', command.workspaceIds);
  if (command.projectIds) await assertAssignable(trx, varset, 'projects', command.projectIds);
  const prepared = await prepareNewVariables(trx, ctx.sealer, variablesOf(varset), variables, varset.updated_at);
  // A set becoming global brings every variable it has under the global rule.
  const all =
    varset.global && !current.global
      ? (await listVariableKeys(trx, variablesOf(varset))).map((v) => ({ ...v, field: 'global' }))
      : held;
  await assertNoGlobalConflict(trx, varset, [...all, ...prepared.map((p) => p.candidate)]);

  const { name, description, global, priority, updated_at } = varset;
  await updateVarsetRow(trx, varset.id, { name, description, global, priority, updated_at });
  if (varset.global !== current.global) await setVariablesGlobal(trx, varset);
  await insertVariables(trx, variablesOf(varset), prepared, globalOrganizationOf(varset));
  for (const kind of ['workspaces', 'projects'] as const) {
    const ids = kind === 'workspaces' ? command.workspaceIds : command.projectIds;
    if (!ids) continue;
    await removeAssignments(trx, kind, varset.id, 'all');
    await addAssignments(trx, kind, varset.id, ids);
  }
  return varset;
}

export async function deleteVarset(ctx: Context, id: string): Promise<void> {
  await writeVarset(ctx, {
    ...existingSetWrite(ctx, id, 'delete'),
    apply: async (trx, before) => {
      await deleteVarsetRow(trx, id);
      return { result: undefined, before, event: () => setEvent(before.varset, 'destroy') };
    },
  });
}
