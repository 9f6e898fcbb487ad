import type { Store } from '../db/transaction.js';
import { pruneAuditEvents } from './service.js';

/** How often the trail is pruned; the first time a minute after start, so that starting stays quick. */
export const PRUNE_INTERVAL_MS = 10 * 60_000;
const FIRST_PRUNE_MS = 60_000;

interface PruneLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Removes the events older than `retentionDays` (0 keeps them all) now and then, from the one
 * process that calls this: the server itself, or the primary of several workers. A failure (the
 * store unreachable) is logged and tried again at the next turn; it never ends the process.
 * Returns the function that stops it.
 */
export function pruneAuditTrailPeriodically(
  store: Store,
  retentionDays: number,
  log: PruneLog,
  intervalMs = PRUNE_INTERVAL_MS,
): () => void {
  if (retentionDays <= 0) return () => {};
  let running: Promise<void> | undefined;
  const prune = () => {
    if (running) return;
    running = pruneAuditEvents(store, retentionDays)
      .then((deleted) => {
        if (deleted > 0) log.info({ deleted, retentionDays }, 'pruned the audit trail');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'pruning the audit trail failed; trying again later'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(prune, Math.min(FIRST_PRUNE_MS, intervalMs)).unref();
  const every = setInterval(prune, intervalMs).unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
