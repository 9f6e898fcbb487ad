import type { Subscriptions } from '../events/registry.js';
import { announcedCounters } from './process-metrics.js';

/** Counts, outside any transaction, what the rules and stores announce; nothing before the process's registry is made. */
export function subscribe(on: Subscriptions): void {
  on.outside('db.statement-failure', ({ kind }) => announcedCounters()?.statementErrors.inc({ kind }));
  on.outside('varset.global-rule-conflict', () => announcedCounters()?.conflicts.inc());
}
