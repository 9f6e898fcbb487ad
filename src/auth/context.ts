import { CredentialsChanged } from '../common/errors.js';
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
  /**
   * The credentials version the subject was kept at, when it was not read for this request: a
   * read that reads the version in its own statement confirms it (`confirmCredentials`).
   */
  credentialsUnconfirmed?: number;
  /** Why the call writes, when its caller says more than a request does (an import names its source): every audit event it records keeps it, and a set's version too. */
  cause?: string;
  /**
   * Given by a preview only: every write of a set made with this context runs whole, the
   * reactions in its transaction included ('varset.writing', 'varset.written'), and is then taken back.
   */
  takeBack?: boolean;
}

/**
 * Checks the credentials version a read found (undefined: the read found nothing, so no version)
 * against the one the request's subject was kept at, if it was not read before: any other
 * means the subject may have changed since, and the request must be answered anew.
 */
export function confirmCredentials(ctx: Context, found: number | undefined): void {
  if (ctx.credentialsUnconfirmed !== undefined && found !== ctx.credentialsUnconfirmed) throw new CredentialsChanged();
}
