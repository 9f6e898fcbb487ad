import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/connect.js';
import { withinTime } from '../common/within-time.js';

/** Seconds a client is asked to wait (`Retry-After`) before trying again while the store cannot serve. */
export const RETRY_AFTER_SECONDS = 5;

/** How often, during an outage, the store is tried to notice that it answers again, and how long a try may take. */
const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 5000;

/**
 * One process's view of a store outage, so that it is logged once however many requests it
 * refuses: an error line when the first failure comes, an info line with the number of
 * refused requests once the store answers again (`Store.probe`, tried every second meanwhile).
 */
export class StoreOutage {
  private since: number | undefined;
  private endedAt = 0;
  private refusedRequests = 0;
  private probing: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether the store failed and has not answered again since. */
  get active(): boolean {
    return this.since !== undefined;
  }

  /**
   * A request that started at `startedAt` (epoch ms) is answered 503 because of `error`. A
   * request that started before the last outage ended failed in that outage: it starts no new one.
   */
  refused(error: unknown, startedAt: number): void {
    if (this.since === undefined && startedAt < this.endedAt) return;
    this.refusedRequests++;
    this.begin(error);
  }

  /** The store failed outside a request (a readiness check). */
  noticed(error: unknown): void {
    this.begin(error);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.probing);
  }

  private begin(error: unknown): void {
    if (this.since !== undefined || this.stopped) return;
    this.since = Date.now();
    this.log.error({ err: error }, 'the store is unavailable: answering 503 until it answers again');
    this.probeLater();
  }

  private probeLater(): void {
    this.probing = setTimeout(() => {
      withinTime(this.store.probe(), PROBE_TIMEOUT_MS).then(
        () => this.end(),
        () => {
          if (!this.stopped) this.probeLater();
        },
      );
    }, PROBE_EVERY_MS);
    this.probing.unref();
  }

  private end(): void {
    if (this.since === undefined || this.stopped) return;
    const now = Date.now();
    this.log.info({ refusedRequests: this.refusedRequests, outageMs: now - this.since }, 'the store answers again');
    this.since = undefined;
    this.endedAt = now;
    this.refusedRequests = 0;
  }
}
