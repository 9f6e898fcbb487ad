import type { Trx } from '../db/transaction.js';
import { NotFound, Invalid, Taken } from '../common/errors.js';
import { events } from '../events/registry.js';
import type { KeyCandidate } from '../variables/model.js';
import { findProjectsById, findWorkspacesById } from './assignment-store.js';
import type { AssignmentKind } from './model.js';
import { findGlobalVariablesByKey, isVarsetNameTaken } from './store.js';

declare module '../events/registry.js' {
  interface DomainEvents {
    /** A write refused (422) by the global rule: two global sets of an organization would share a key and category. */
    'varset.global-rule-conflict': Record<string, never>;
  }
}

/**
 * The rules between a set and the rest of its organization. Each is checked inside the
 * write's transaction, under the organization's lock, so its answer stays true until commit.
 */

/**
 * The global rule: two global sets of one organization never hold a variable with the same
 * key and category. Every write that could break it (creating or updating a set, adding or
 * updating a variable) calls this with the variables the set will hold that may be new to
 * it; nothing happens unless the set is, or is becoming, global. One query however many
 * global sets there are.
 */
export async function assertNoGlobalConflict(
  trx: Trx,
  varset: { id: string; organization_id: string; global: boolean },
  candidates: KeyCandidate[],
): Promise<void> {
  if (!varset.global || !candidates.length) return;
  const others = await findGlobalVariablesByKey(trx, varset.organization_id, varset.id, [
    ...new Set(candidates.map((c) => c.key)),
  ]);
  for (const candidate of candidates) {
    const clash = others.find((o) => o.key === candidate.key && o.category === candidate.category);
    if (clash) {
      events.announce('varset.global-rule-conflict', {});
      throw new Invalid(
        candidate.field,
        `Variable "${candidate.key}" (${candidate.category}) conflicts with the global variable set "${clash.varset_name}": global variable sets of an organization cannot share a key and category`,
      );
    }
  }
}

/** A set's name is unique in its organization. */
export async function assertNameFree(
  trx: Trx,
  varset: { id: string; organization_id: string; name: string },
): Promise<void> {
  if (await isVarsetNameTaken(trx, varset.organization_id, varset.name, varset.id)) throw new Taken('name');
}

export function assertNotGlobalWhenProjectOwned(varset: { project_id: string | null; global: boolean }): void {
  if (varset.project_id !== null && varset.global)
    throw new Invalid('global', 'a variable set owned by a project cannot be global');
}

/**
 * Workspaces a set is to be applied to: each must exist in the set's organization (404
 * otherwise), and a set owned by a project reaches only that project's workspaces (422).
 */
async function assertWorkspacesAllowed(
  trx: Trx,
  varset: { organization_id: string; project_id: string | null },
  ids: string[],
): Promise<void> {
  const found = new Map((await findWorkspacesById(trx, ids)).map((w) => [w.id, w]));
  for (const id of ids) {
    const workspace = found.get(id);
    if (!workspace || workspace.organization_id !== varset.organization_id) throw new NotFound();
    if (varset.project_id !== null && workspace.project_id !== varset.project_id) {
      throw new Invalid(
        'workspaces',
        `a variable set owned by a project can only be applied to workspaces of that project (${id} is not)`,
      );
    }
  }
}

/** Projects a set is to be applied to: each must exist in the set's organization (404), and a project-owned set reaches only its own project (422). */
async function assertProjectsAllowed(
  trx: Trx,
  varset: { organization_id: string; project_id: string | null },
  ids: string[],
): Promise<void> {
  const found = new Map((await findProjectsById(trx, ids)).map((p) => [p.id, p]));
  for (const id of ids) {
    const project = found.get(id);
    if (!project || project.organization_id !== varset.organization_id) throw new NotFound();
    if (varset.project_id !== null && id !== varset.project_id) {
      throw new Invalid(
        'projects',
        `a variable set owned by a project can only be applied to that project (${id} is not)`,
      );
    }
  }
}

/** Workspaces or projects a set is to be applied to (see `assertWorkspacesAllowed`, `assertProjectsAllowed`). */
export function assertAssignable(
  trx: Trx,
  varset: { organization_id: string; project_id: string | null },
  kind: AssignmentKind,
  ids: string[],
): Promise<void> {
  return kind === 'workspaces' ? assertWorkspacesAllowed(trx, varset, ids) : assertProjectsAllowed(trx, varset, ids);
}

/** The project that is to own a new set: one of the set's organization (404 otherwise). */
export async function assertOwnerProject(trx: Trx, organizationId: string, projectId: string): Promise<void> {
  const [project] = await findProjectsById(trx, [projectId]);
  if (!project || project.organization_id !== organizationId) throw new NotFound();
}
