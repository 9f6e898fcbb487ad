import diagnostics_channel from 'node:diagnostics_channel';

/**
 * Events the server's rules and stores announce for whoever watches them (src/metrics counts
 * them). Publishing on a channel nobody subscribes to costs next to nothing, and the code that
 * publishes knows nothing of who listens.
 */

/** A write refused by the global rule (two global sets of an organization sharing a key and category). */
export const globalRuleConflicts = diagnostics_channel.channel('varsetd:global-rule-conflict');

/** A statement the database refused or could not run; the message is a `StatementFailure`. */
export const statementFailures = diagnostics_channel.channel('varsetd:statement-failure');

export interface StatementFailure {
  /** A bounded name of what went wrong (see src/db/statement-errors.ts); never the statement or its values. */
  kind: string;
}
