import { randomUUID } from 'node:crypto';
import type { BaseLogger } from 'pino';
import { transaction, type Store } from '../db/transaction.js';
import type { Sealer } from '../secrets/sealer.js';
import { changeBody } from './payload.js';
import {
  anyDue,
  claimDue,
  completeDelivery,
  failDelivery,
  releaseDelivery,
  type ClaimedDelivery,
} from './queue-store.js';
import { DEFAULT_TIMEOUT_MS, send } from './send.js';
import { insertResponse } from './store.js';

/**
 * Sends the queued notifications, in every serving process. Each round it leases a few due
 * deliveries (queue-store.ts: never one another process holds, never a set's later change
 * before an earlier one to the same configuration), sends them at once, and records each
 * attempt. A failure (no 2xx, no answer in time, no connection) is tried again after a pause
 * that doubles from `firstRetryMs` up to `longestRetryMs`; after `maxAttempts` the delivery is
 * marked failed and the set's next change goes. A process that dies holding a lease leaves the
 * delivery to whichever process finds the lease run out. Stopping claims nothing more, gives an
 * unfinished send `stopGraceMs` and then interrupts it, giving the delivery back unsent.
 */

export interface DelivererOptions {
  allowPrivateAddresses: boolean;
  /** A send with no complete answer by then fails. */
  timeoutMs?: number;
  firstRetryMs?: number;
  longestRetryMs?: number;
  maxAttempts?: number;
  /** How often an idle process looks for due deliveries. */
  pollMs?: number;
  /** Deliveries leased per round. */
  batch?: number;
  stopGraceMs?: number;
}

export const DELIVERY_DEFAULTS = {
  timeoutMs: DEFAULT_TIMEOUT_MS,
  firstRetryMs: 1_000,
  longestRetryMs: 5 * 60_000,
  maxAttempts: 12,
  pollMs: 1_000,
  batch: 4,
  stopGraceMs: 1_000,
};

/** The pause after the `attempts`-th failed attempt. */
export function retryPause(attempts: number, firstMs: number, longestMs: number): number {
  return Math.min(longestMs, firstMs * 2 ** Math.min(attempts - 1, 30));
}

export class Deliverer {
  private readonly options: Required<DelivererOptions>;
  /** Leases name the process holding them. */
  private readonly owner = randomUUID();
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new AbortController();
  private storeFailing = false;

  constructor(
    private readonly store: Store,
    private readonly sealer: Sealer,
    private readonly log: Pick<BaseLogger, 'info' | 'warn' | 'error'>,
    options: DelivererOptions,
  ) {
    this.options = { ...DELIVERY_DEFAULTS, ...options };
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.wake?.();
    const grace = setTimeout(() => this.inFlight.abort(), this.options.stopGraceMs);
    try {
      await this.loop;
    } finally {
      clearTimeout(grace);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const claimed = await this.claim();
      if (claimed.length === 0) {
        await this.pause(this.options.pollMs);
        continue;
      }
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- stop() may have run during the await
      if (this.stopping) {
        // Claimed as the stop came: handed back unsent, for the next process.
        await Promise.all(
          claimed.map((delivery) => releaseDelivery(this.store.db, delivery.id, this.owner).catch(() => {})),
        );
        break;
      }
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
    }
  }

  private async claim(): Promise<ClaimedDelivery[]> {
    try {
      const now = new Date();
      if (!(await anyDue(this.store, now.toISOString()))) return this.storeAnswered([]);
      const leaseUntil = new Date(now.getTime() + this.leaseMs()).toISOString();
      return this.storeAnswered(
        await claimDue(this.store, this.owner, now.toISOString(), leaseUntil, this.options.batch),
      );
    } catch (error) {
      this.storeFailed(error);
      return [];
    }
  }

  /** Long enough for a send to end, timeout included, and its result to be written. */
  private leaseMs(): number {
    return this.options.timeoutMs + Math.max(this.options.stopGraceMs, 25_000);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { configuration, change } = delivery;
    const attempt = delivery.attempts + 1;
    try {
      const sent = await this.sendChange(delivery);
      if (sent.aborted) {
        await releaseDelivery(this.store.db, delivery.id, this.owner);
        return;
      }
      const response = {
        ...sent.response,
        varsetId: change.version.varsetId,
        versionNumber: change.version.number,
        attempt,
      };
      const retryAt =
        response.successful || attempt >= this.options.maxAttempts
          ? null
          : new Date(
              Date.now() + retryPause(attempt, this.options.firstRetryMs, this.options.longestRetryMs),
            ).toISOString();
      await transaction(this.store, async (trx) => {
        if (response.successful) await completeDelivery(trx, delivery.id, this.owner);
        else await failDelivery(trx, delivery.id, this.owner, attempt, retryAt);
        await insertResponse(trx, configuration.id, response);
      });
      if (!response.successful) {
        const fields = {
          configuration: configuration.id,
          varset: change.version.varsetId,
          version: change.version.number,
          attempt,
          code: response.code,
          error: response.error,
        };
        if (retryAt === null) this.log.error(fields, 'a notification failed for good: the next one goes');
        else this.log.warn({ ...fields, retryAt }, 'a notification failed: trying again later');
      }
    } catch (error) {
      // The store failed: the lease runs out and the delivery is tried again.
      this.storeFailed(error);
    }
  }

  private async sendChange({ configuration, change }: ClaimedDelivery) {
    let token: string | null = null;
    try {
      if (configuration.destinationType === 'generic' && configuration.sealedToken !== null)
        token = this.sealer.open(configuration.sealedToken);
    } catch {
      // Never sent unsigned: the receiver would take it for a forgery, or worse, trust it.
      return {
        response: {
          url: configuration.url,
          code: null,
          body: '',
          headers: {},
          error: 'the token cannot be opened with this encryption key',
          successful: false,
          sentAt: new Date().toISOString(),
        },
        aborted: false,
      };
    }
    const options = {
      timeoutMs: this.options.timeoutMs,
      allowPrivateAddresses: this.options.allowPrivateAddresses,
      signal: this.inFlight.signal,
    };
    return send(configuration.url, changeBody(configuration, change), token, options);
  }

  private storeAnswered<T>(value: T): T {
    if (this.storeFailing) {
      this.storeFailing = false;
      this.log.info('notifications: the store answers again');
    }
    return value;
  }

  private storeFailed(error: unknown): void {
    if (this.storeFailing || this.stopping) return;
    this.storeFailing = true;
    this.log.error({ err: error }, 'notifications: the store is unavailable; deliveries wait until it answers');
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopping) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
