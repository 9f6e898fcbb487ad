/**
 * The one registry of domain events: how a feature reacts to what another does. A feature that
 * publishes an event declares it, with its payload, by adding it to `DomainEvents` (a module
 * augmentation next to the code that publishes it); the features that react subscribe in their
 * own `subscriptions.ts`, which src/subscribers.ts calls once at start, and nothing subscribes
 * after that. This module knows no feature.
 *
 * Two kinds of subscription:
 *
 * - **In the write's transaction** (`inTransaction`), where the reaction must commit or roll back
 *   with the write: an organization's default project, the versions a deletion makes, a
 *   preview's reads. `publish` awaits each handler in the order of subscription; a handler's
 *   error fails the write. Publishing one before the registry is filled is refused: a write
 *   made without its reactions would lose them for good.
 * - **Outside any transaction** (`outside`), where the reaction may be lost with the process:
 *   metrics. `announce` calls the handlers at once and never lets one fail its caller; what is
 *   announced is decided (a refusal, a failed statement), and the reactions take no part in the
 *   transaction, if there is one: they read nothing of it and write nothing to the database.
 *
 * A feature may also react in the database itself (`inDatabase`): a trigger that runs in the
 * write's transaction. It is declared here by its feature, so that what it does is found where
 * the feature is; test/events.test.ts checks every declared trigger exists and does what its
 * feature says, and scripts/check-layers.mjs refuses a trigger in a new migration.
 */

/** Every domain event by name, with its payload; each is declared by the feature that publishes it. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface DomainEvents {}

export type EventName = keyof DomainEvents;

export type InTransactionHandler<E extends EventName> = (payload: DomainEvents[E]) => Promise<void>;
export type OutsideHandler<E extends EventName> = (payload: DomainEvents[E]) => void;

/** A reaction the database makes itself, in the transaction of the write that sets it off. */
export interface DatabaseSubscription {
  /** The feature whose reaction it is. */
  feature: string;
  /** The trigger's name (the same on SQLite and PostgreSQL). */
  trigger: string;
  /** The table whose writes set it off. */
  table: string;
  /** What it does, in the feature's words. */
  does: string;
}

/** What a feature's `subscribe` gets at start: the only way to subscribe. */
export interface Subscriptions {
  inTransaction<E extends EventName>(event: E, handler: InTransactionHandler<E>): void;
  outside<E extends EventName>(event: E, handler: OutsideHandler<E>): void;
  inDatabase(event: EventName, subscription: DatabaseSubscription): void;
}

type AnyPayload = DomainEvents[EventName];

export class EventRegistry {
  private readonly inTransaction = new Map<string, ((payload: AnyPayload) => Promise<void>)[]>();
  private readonly outside = new Map<string, ((payload: AnyPayload) => void)[]>();
  private readonly database: (DatabaseSubscription & { event: string })[] = [];
  private filled = false;

  /** Fills the registry once: each of `subscribers` subscribes what its feature reacts to. Later calls do nothing. */
  fill(subscribers: readonly ((on: Subscriptions) => void)[]): void {
    if (this.filled) return;
    const add = <H>(map: Map<string, H[]>, event: string, handler: H) =>
      map.set(event, [...(map.get(event) ?? []), handler]);
    const on: Subscriptions = {
      inTransaction: (event, handler) =>
        add(this.inTransaction, event, handler as (payload: AnyPayload) => Promise<void>),
      outside: (event, handler) => add(this.outside, event, handler as (payload: AnyPayload) => void),
      inDatabase: (event, subscription) => void this.database.push({ event, ...subscription }),
    };
    for (const subscribe of subscribers) subscribe(on);
    this.filled = true;
  }

  /** Runs, in the caller's transaction, every reaction to `event` that must commit with it, in the order subscribed. */
  async publish<E extends EventName>(event: E, payload: DomainEvents[E]): Promise<void> {
    if (!this.filled) throw new Error(`the event ${event} was published before the registry of events was filled`);
    for (const handler of this.inTransaction.get(event) ?? []) await handler(payload);
  }

  /** Tells the reactions that need no transaction (metrics); cheap when none listens, and never throws. */
  announce<E extends EventName>(event: E, payload: DomainEvents[E]): void {
    for (const handler of this.outside.get(event) ?? []) {
      try {
        handler(payload);
      } catch {
        // A reaction outside the write may be lost; the write's outcome stands.
      }
    }
  }

  /** The reactions the database makes itself, as their features declare them. */
  databaseSubscriptions(): readonly (DatabaseSubscription & { event: string })[] {
    return this.database;
  }

  /** Who reacts to what: each event with the number of subscriptions of each kind (for tests and docs). */
  subscriptionsOf(event: EventName): { inTransaction: number; outside: number; inDatabase: number } {
    return {
      inTransaction: this.inTransaction.get(event)?.length ?? 0,
      outside: this.outside.get(event)?.length ?? 0,
      inDatabase: this.database.filter((d) => d.event === event).length,
    };
  }
}

/** The process's one registry. */
export const events = new EventRegistry();
