import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { VERSION } from '../version.js';

/**
 * What belongs to the process rather than to one app in it: Node's own metrics (memory, CPU,
 * event loop lag, …), the build, and the events the rules and stores announce (counted by the
 * reactions of src/metrics/subscriptions.ts). Made once per process, however many apps it builds
 * (the tests build many).
 */
let registry: Registry | undefined;
/** The counters of announced events, once the process's registry is made. */
let counters: { statementErrors: Counter; conflicts: Counter } | undefined;

export function processRegistry(): Registry {
  if (registry) return registry;
  registry = new Registry();
  collectDefaultMetrics({ register: registry });

  new Gauge({
    name: 'varsetd_build_info',
    help: 'Always 1: the version of varsetd and of Node.js this process runs.',
    labelNames: ['version', 'node_version'],
    registers: [registry],
    aggregator: 'first',
  }).set({ version: VERSION, node_version: process.version }, 1);

  const statementErrors = new Counter({
    name: 'varsetd_db_statement_errors_total',
    help: 'Statements the database refused or could not run, by kind: PostgreSQL SQLSTATE class (sqlstate_23, …), SQLite primary code (SQLITE_BUSY, …), connection or other.',
    labelNames: ['kind'],
    registers: [registry],
  });

  const conflicts = new Counter({
    name: 'varsetd_global_rule_conflicts_total',
    help: 'Writes refused (422) because two global variable sets of an organization would share a variable key and category.',
    registers: [registry],
  });
  counters = { statementErrors, conflicts };
  return registry;
}

/** The counters of announced events (src/metrics/subscriptions.ts counts into them); none before the process's registry is made. */
export function announcedCounters(): typeof counters {
  return counters;
}
