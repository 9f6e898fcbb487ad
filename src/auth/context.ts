import type { Store } from '../db/connect.js';
import type { Subject } from './subject.js';
import type { Sealer } from '../secrets/sealer.js';
import type { Trx } from '../db/transaction.js';

/** What every service call needs: the store, who is acting, the sealer of sensitive values and the request's id. */
export interface Context {
  store: Store;
  subject: Subject;
  sealer: Sealer;
  /** The request's id (also its `X-Request-Id` header), which histories and the audit trail record. */
  requestId: string;
  /** Why the call writes, when its caller says more than a request does (an import names its source): every audit event it records keeps it, and a set's version too. */
  cause?: string;
  /** Given by a preview only: sees a set's write from inside its transaction (see `WriteWatcher`), which is then taken back. */
  writeWatcher?: WriteWatcher;
}

/**
 * Called by every write of a set in its transaction, under the organization's lock
 * (varsets/write-path.ts): once the write's permission is decided and before it changes
 * anything, then once it has changed all it will (its version recorded). A preview reads the
 * database at both points; the write is then taken back.
 */
export interface WriteWatcher {
  beforeWrite(trx: Trx, varsetId: string): Promise<void>;
  afterWrite(trx: Trx, varsetId: string): Promise<void>;
}
