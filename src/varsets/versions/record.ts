import type { Context } from '../../auth/context.js';
import type { Trx } from '../../db/transaction.js';
import { newId, now } from '../../common/ids.js';
import { diffStates, type Actor, type VarsetState, type VersionAction } from './model.js';
import { insertVersion, type RecordedVersion } from './store.js';

/** What a version says of its set besides its changes. */
export interface VersionedSet {
  organization_id: string;
  project_id: string | null;
  name: string;
}

/** A set as it was before a write (null: it did not exist), and the number of its newest version (0: none). */
export interface Before {
  varset: VersionedSet | null;
  state: VarsetState | null;
  lastNumber: number;
}

/** A set as it is after a write. */
export interface After {
  varset: VersionedSet;
  state: VarsetState;
}

/** What a new set was before its creation. */
export const NEW_SET: Before = { varset: null, state: null, lastNumber: 0 };

export function actorOf(ctx: Context): Actor {
  const { subject } = ctx;
  return {
    tokenId: subject.tokenId,
    kind: subject.kind,
    teamId: subject.kind === 'team' ? subject.teamId : null,
    description: subject.description,
  };
}

/**
 * Records the set's new version, in the write's transaction, after the write: what changed
 * from `before` to `after` (null: the set is gone). A write that changed nothing records none.
 * Returns the version, or null when none was made.
 */
export function recordVersion(
  trx: Trx,
  ctx: Context,
  varsetId: string,
  { before, after }: { before: Before; after: After | null },
  action: VersionAction,
  rolledBackTo: number | null = null,
): RecordedVersion | null {
  const { changes, sealed } = diffStates(before.state, after?.state ?? null, ctx.sealer);
  if (!changes.length) return null;
  const varset = (after?.varset ?? before.varset)!;
  const version: RecordedVersion = {
    id: newId('vsv'),
    varsetId,
    organizationId: varset.organization_id,
    projectId: varset.project_id,
    number: before.lastNumber + 1,
    action,
    rolledBackTo,
    varsetName: varset.name,
    createdAt: now(),
    actor: actorOf(ctx),
    requestId: ctx.requestId,
    cause: ctx.cause ?? null,
    changes,
    sealed,
  };
  insertVersion(trx, version);
  return version;
}
