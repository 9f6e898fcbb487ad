import type { Store } from '../db/connect.js';
import type { Subject } from './subject.js';
import type { Sealer } from '../secrets/sealer.js';

/** What every service call needs: the store, who is acting, the sealer of sensitive values and the request's id. */
export interface Context {
  store: Store;
  subject: Subject;
  sealer: Sealer;
  /** The request's id (also its `X-Request-Id` header), which histories and the audit trail record. */
  requestId: string;
  /** Why the call writes, when its caller says more than a request does (an import names its source): every audit event it records keeps it, and a set's version too. */
  cause?: string;
  /**
   * Given by a preview only: every write of a set made with this context runs whole, the
   * reactions in its transaction included ('varset.writing', 'varset.written'), and is then taken back.
   */
  takeBack?: boolean;
}
