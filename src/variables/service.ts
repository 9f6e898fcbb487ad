import type { Context } from '../auth/context.js';
import { recordAuditEvent, type AuditRecord } from '../audit/service.js';
import { transaction, type Db, type Trx } from '../db/transaction.js';
import { newId, now } from '../common/ids.js';
import { NotFound, Taken } from '../common/errors.js';
import type { Sealer } from '../secrets/sealer.js';
import { storedValue } from '../secrets/variables.js';
import { randomBytes } from 'node:crypto';
import {
  applyVariableChanges,
  fieldOf,
  checkVariableChanges,
  type KeyCandidate,
  type VariablePlace,
  type Variable,
  type VariableChanges,
  type VariableFields,
  type VariableOwner,
} from './model.js';
import * as store from './store.js';

/**
 * The one write path of every variable, a set's or a workspace's: new ones and updates are
 * checked (key and category unique in their owner, the write-only rules of sensitive values),
 * sealed when sensitive and given a new version, then written. The owner's feature calls these
 * inside its own transaction, with its own checks between preparing and writing (the global
 * rule of sets).
 */

export {
  deleteVariable,
  deleteVariables,
  findVariable,
  listVariableKeys,
  listVariables,
  pageOfVariables,
  variablesOfSets,
} from './store.js';

/** A new variable of a request: its attributes (see `newVariableFields`) and where the request names it. */
export interface NewVariable {
  fields: VariableFields;
  at: VariablePlace;
}

/** A variable ready to be written, with what the uniqueness rules know of it. */
export interface PreparedVariable {
  variable: Variable;
  candidate: KeyCandidate;
}

/** An update of a variable, ready to save: the variable as it will be, and as it was. */
export interface PreparedUpdate extends PreparedVariable {
  previous: Variable;
}

/** A fresh opaque version, given to a variable on creation and on every update. */
export function newVersionId(): string {
  return randomBytes(20).toString('hex');
}

const keyTaken = (field: string) => new Taken('key', field);

/**
 * Key and category together are unique in an owner: none of `candidates` may repeat another
 * of the request, nor a variable the owner has (but `exceptId`, the one being updated).
 */
async function assertKeysFree(
  db: Db,
  owner: VariableOwner,
  candidates: KeyCandidate[],
  exceptId?: string,
): Promise<void> {
  const seen = new Set<string>();
  for (const c of candidates) {
    const id = `${c.category}\u0000${c.key}`;
    if (seen.has(id)) throw keyTaken(c.field);
    seen.add(id);
  }
  const existing = await store.findVariablesByKey(db, owner, [...new Set(candidates.map((c) => c.key))]);
  for (const c of candidates) {
    if (existing.some((e) => e.key === c.key && e.category === c.category && e.id !== exceptId))
      throw keyTaken(c.field);
  }
}

/** New variables of `owner`, checked and ready for `insertVariables`: ids, sealed values, versions. */
export async function prepareNewVariables(
  db: Db,
  sealer: Sealer,
  owner: VariableOwner,
  requested: NewVariable[],
  createdAt = now(),
): Promise<PreparedVariable[]> {
  const prepared = requested.map(({ fields, at }) => ({
    variable: {
      ...fields,
      id: newId('var'),
      owner,
      value: storedValue(sealer, fields),
      version_id: newVersionId(),
      created_at: createdAt,
    },
    candidate: { key: fields.key, category: fields.category, field: fieldOf(at, 'key') },
  }));
  await assertKeysFree(
    db,
    owner,
    prepared.map((p) => p.candidate),
  );
  return prepared;
}

export async function insertVariables(
  db: Db,
  owner: VariableOwner,
  prepared: PreparedVariable[],
  globalOrganizationId: string | null = null,
): Promise<void> {
  await store.insertVariables(
    db,
    owner,
    prepared.map((p) => p.variable),
    globalOrganizationId,
  );
}

/**
 * The variable `id` of `owner` after `changes` (404 when it has none), checked and ready for
 * `saveVariable`: attributes absent from the request keep their value, a new value is sealed
 * when the variable is sensitive, and the version is new even when nothing changes.
 */
export async function prepareVariableUpdate(
  db: Db,
  sealer: Sealer,
  owner: VariableOwner,
  id: string,
  changes: VariableChanges,
  at: VariablePlace,
): Promise<PreparedUpdate> {
  checkVariableChanges(changes, at);
  const current = await store.findVariable(db, owner, id);
  if (!current) throw new NotFound();
  const fields = applyVariableChanges(current, changes, at);
  const candidate = {
    key: fields.key,
    category: fields.category,
    field: fieldOf(at, changes.key !== undefined ? 'key' : 'category'),
  };
  await assertKeysFree(db, owner, [candidate], current.id);
  const value = storedValue(sealer, fields, current, changes.value !== undefined);
  return { variable: { ...current, ...fields, value, version_id: newVersionId() }, candidate, previous: current };
}

export async function saveVariable(db: Db, prepared: PreparedVariable): Promise<void> {
  await store.updateVariable(db, prepared.variable);
}

/** A variable's write in the audit trail: its key, category and owner, never its value (even one that is not sensitive). */
export function variableEvent(
  organizationId: string,
  variable: Pick<Variable, 'id' | 'owner' | 'key' | 'category' | 'sensitive'>,
  action: 'create' | 'update' | 'destroy',
): AuditRecord {
  const owner = `${variable.owner.kind}_id`;
  return {
    organizationId,
    type: 'var',
    id: variable.id,
    action,
    meta: { key: variable.key, category: variable.category, sensitive: variable.sensitive, [owner]: variable.owner.id },
  };
}

/** Records `variableEvent` in the write's transaction. */
export function recordVariableEvent(
  trx: Trx,
  ctx: Pick<Context, 'subject' | 'requestId' | 'cause'>,
  organizationId: string,
  variable: Pick<Variable, 'id' | 'owner' | 'key' | 'category' | 'sensitive'>,
  action: 'create' | 'update' | 'destroy',
): void {
  recordAuditEvent(trx, ctx, variableEvent(organizationId, variable, action));
}

/** A sensitive variable's value, opened. */
export interface SensitiveValue {
  id: string;
  key: string;
  category: Variable['category'];
  value: string;
}

/**
 * The owner's sensitive values, opened, for a caller that decided the site administrator reads
 * them (`ensureReadsSensitiveValues`): the read and its audit event (`read-sensitive-values`,
 * naming the owner and how many values it gave, never one of them) in one transaction. A
 * variable that needs a value has none to give and is left out.
 */
export async function openSensitiveValues(
  ctx: Context,
  about: Omit<AuditRecord, 'action'>,
  owner: VariableOwner,
): Promise<SensitiveValue[]> {
  return transaction(ctx.store, async (trx) => {
    const held = (await store.listVariables(trx, owner)).filter((v) => v.sensitive && !v.value_needed);
    const opened = held.map((v) => ({ id: v.id, key: v.key, category: v.category, value: ctx.sealer.open(v.value) }));
    recordAuditEvent(trx, ctx, {
      ...about,
      action: 'read-sensitive-values',
      meta: { ...about.meta, count: opened.length },
    });
    return opened;
  });
}
