import { confirmCredentials, type Context } from '../auth/context.js';
import { findCredentialsVersion } from '../auth/store.js';
import { recordAuditEvent, type AuditRecord } from '../audit/service.js';
import { ensure } from '../auth/decisions.js';
import { withOrganizationLocked, type OrganizationOfWrite, type Trx } from '../db/transaction.js';
import { NotFound } from '../common/errors.js';
import { events } from '../events/registry.js';
import { targetOf, type Varset } from './model.js';
import { findVarsetAndNewestNumber, findVarsetState, type FoundState, type VarsetAtNumber } from './state-store.js';
import { recordVersion, type After, type Before } from './versions/record.js';
import type { VersionAction } from './versions/model.js';
import type { RecordedVersion } from './versions/store.js';

/**
 * The one way a set changes. Creating, updating and deleting it, a variable's addition, change
 * and deletion, its assignments, a rollback and the restoring of a deleted set are each a
 * `SetWrite` that `writeVarset` runs: under the organization's lock it opens the set (reading it
 * and deciding the permission), publishes 'varset.writing' before the change and 'varset.written'
 * once it recorded what the change did, one version (none when it changed nothing) and one audit
 * event, at one point. (The database queues the version's notifications: see src/notifications/subscriptions.ts.)
 */

declare module '../events/registry.js' {
  interface DomainEvents {
    /** A write of a set may go ahead (its permission decided) and has changed nothing yet; under the organization's lock. */
    'varset.writing': { trx: Trx; ctx: Context; varsetId: string };
    /** A write of a set changed all it will, its version and audit event recorded; its transaction is still open. */
    'varset.written': {
      trx: Trx;
      ctx: Context;
      varsetId: string;
      action: VersionAction;
      version: RecordedVersion | null;
    };
  }
}

export interface SetWrite<Opened, T> {
  varsetId: string;
  /** The organization whose lock the write holds: its id, or that of the set's. */
  organization: OrganizationOfWrite;
  /** What the set's history calls the write. */
  action: VersionAction;
  /** A rollback's version. */
  rolledBackTo?: number;
  /** Made and taken back: a dry run. A preview's write (`ctx.takeBack`) is taken back too. */
  takeBack?: boolean;
  /** Reads the set under the lock and decides the permission: the 404 of a missing set or of a refused write. */
  open(trx: Trx): Promise<Opened>;
  /** Checks and makes the change. */
  apply(trx: Trx, opened: Opened): Promise<Applied<T>>;
}

export interface Applied<T> {
  result: T;
  /** The set before the change, as its version compares it. */
  before: Before;
  /** The set after it, when the write knows (a variable's write: the set narrowed to it); otherwise read again, or nothing once deleted. */
  after?: After;
  /** The change in the audit trail, given the version it made (null: none). */
  event(version: RecordedVersion | null): AuditRecord;
}

/** What a write made: its result, and the version it recorded (null: it changed nothing). */
export interface Written<T> {
  result: T;
  version: RecordedVersion | null;
}

export function writeVarset<Opened, T>(ctx: Context, write: SetWrite<Opened, T>): Promise<Written<T>> {
  const takeBack = write.takeBack === true || ctx.takeBack === true;
  return withOrganizationLocked(
    ctx.store,
    write.organization,
    async (trx, locked) => {
      // A subject kept without reading the credentials version (`credentialsInRead`) is confirmed
      // first: PostgreSQL's locking statement read the version, SQLite reads it in the transaction.
      if (ctx.credentialsUnconfirmed !== undefined)
        confirmCredentials(ctx, locked?.credentialsVersion ?? (await findCredentialsVersion(trx)));
      const opened = await write.open(trx);
      await events.publish('varset.writing', { trx, ctx, varsetId: write.varsetId });
      const applied = await write.apply(trx, opened);
      const after = applied.after ?? (write.action === 'delete' ? null : (await findVarsetState(trx, write.varsetId))!);
      const version = recordVersion(
        trx,
        ctx,
        write.varsetId,
        { before: applied.before, after },
        write.action,
        write.rolledBackTo,
      );
      recordAuditEvent(trx, ctx, applied.event(version));
      await events.publish('varset.written', { trx, ctx, varsetId: write.varsetId, action: write.action, version });
      return { result: applied.result, version };
    },
    { takeBack },
  );
}

/** Opens an existing set whole (attributes, variables, assignments), if the subject may do `action` on it. */
function existingSet(ctx: Context, id: string, action: 'varset:update' | 'varset:delete') {
  return async (trx: Trx): Promise<FoundState> => {
    const found = await findVarsetState(trx, id);
    if (!found) throw new NotFound();
    ensure(ctx.subject, action, targetOf(found.varset));
    return found;
  };
}

/** Which existing set an update or deletion writes, the lock it holds and how it opens the set (`existingSet`). */
export function existingSetWrite(ctx: Context, id: string, action: 'update' | 'delete') {
  return { varsetId: id, organization: { varsetId: id }, action, open: existingSet(ctx, id, `varset:${action}`) };
}

/** Opens an existing set without its variables and assignments (a variable's write says what it changed), if the subject may update it. */
export function existingSetAlone(ctx: Context, id: string) {
  return async (trx: Trx): Promise<VarsetAtNumber> => {
    const found = await findVarsetAndNewestNumber(trx, id);
    if (!found) throw new NotFound();
    ensure(ctx.subject, 'varset:update', targetOf(found.varset));
    return found;
  };
}

/** A set's write in the audit trail: the set by id and name, and what else the write says. */
export function setEvent(
  varset: Pick<Varset, 'id' | 'organization_id' | 'name'>,
  action: string,
  meta: Record<string, string> = {},
): AuditRecord {
  return {
    organizationId: varset.organization_id,
    type: 'varset',
    id: varset.id,
    action,
    meta: { name: varset.name, ...meta },
  };
}
