import { isStoreUnavailable, schemaCheck, type Store } from '../db/connect.js';
import type { StoreOutage } from '../http/outage.js';
import { withinTime } from '../common/within-time.js';

/** How long the readiness check waits for the store before calling it down. */
const STORE_CHECK_MS = 2000;

/**
 * What is not ready: the store does not answer, its schema is one a newer varsetd migrated past
 * what this build may write to (`newer`) or lacks this build's migrations (`mismatch`), or the
 * process is shutting down.
 */
export type ReadinessChecks = { store?: 'down'; migrations?: 'mismatch' | 'newer'; process?: 'draining' };

export type ReadinessReport = { ready: true } | { ready: false; checks: ReadinessChecks };

/** Whether this process should be sent requests: the answer of `GET /readyz`. */
export class Readiness {
  private stopping = false;

  constructor(
    private readonly store: Store,
    private readonly outage: StoreOutage,
  ) {}

  /**
   * The process is going: from now on it answers not ready, so that a load balancer stops sending
   * to it, while it still serves what comes (with `Connection: close`, so that clients leave its
   * connections) until it closes.
   */
  stop(): void {
    this.stopping = true;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  async check(): Promise<ReadinessReport> {
    if (this.stopping) return { ready: false, checks: { process: 'draining' } };
    // Requests are being refused: say so at once rather than add to the load.
    if (this.outage.active) return { ready: false, checks: { store: 'down' } };
    let schema: Awaited<ReturnType<typeof schemaCheck>>;
    try {
      schema = await withinTime(schemaCheck(this.store), STORE_CHECK_MS);
    } catch (error) {
      if (isStoreUnavailable(error)) this.outage.noticed(error);
      return { ready: false, checks: { store: 'down' } };
    }
    if (schema === 'current') return { ready: true };
    return { ready: false, checks: { migrations: schema === 'newer' ? 'newer' : 'mismatch' } };
  }
}
