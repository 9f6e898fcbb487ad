/**
 * What the rules refuse, in the domain's own terms: no status codes, no JSON pointers. A
 * `field` names what an error is about as the domain does: an attribute (`name`), a member of
 * one (`project-access.runs`), or an element of a list (`vars[2].key`). The HTTP edge
 * (src/http/domain-errors.ts) turns each into its JSON:API answer.
 */
export abstract class DomainError extends Error {
  /** A stable word a client may tell this refusal by, and the facts it may act on. */
  code?: string;
  facts?: Record<string, unknown>;
}

/** The resource does not exist, or the subject may not see it: the two look alike. */
export class NotFound extends DomainError {
  constructor() {
    super('not found');
  }
}

/** The organization refuses the subject's kind of token outright (HCP Terraform answers it as an unauthenticated request). */
export class TokenRefused extends DomainError {
  constructor() {
    super('unauthorized');
  }
}

/**
 * The credentials version a read found is not the one the request's subject was kept at: the
 * subject must be read again, and the request answered anew (src/http/credentials.ts).
 */
export class CredentialsChanged extends Error {
  constructor() {
    super('credentials changed');
  }
}

/** The subject sees the resource but may not make this change. */
export class Forbidden extends DomainError {
  constructor(
    readonly reason: string,
    readonly field?: string,
  ) {
    super(reason);
  }
}

/** A value the domain does not accept, whatever the state of the rest. */
export class Invalid extends DomainError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * A value another resource of the same kind already has: `what` is taken (a name, a key, a
 * description), `field` the one the request gave that makes it so (a key's category, for one).
 */
export class Taken extends DomainError {
  constructor(
    readonly what: 'name' | 'key' | 'description',
    readonly field: string = what,
  ) {
    super(`${what} has already been taken`);
  }
}

/** A request the current state of things refuses (a rule between resources). */
export class Unprocessable extends DomainError {
  constructor(
    readonly reason: string,
    readonly field?: string,
  ) {
    super(reason);
  }
}

/** A change that conflicts with the resource's state (a lock, a finished run). */
export class Conflict extends DomainError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A status change the resource's life cycle does not allow. */
export class TransitionRefused extends DomainError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Content larger than the domain keeps (an archive). */
export class TooLarge extends DomainError {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A filter of a list the domain cannot apply; `field` as `organization.name`, `tagged[0].key`. */
export class InvalidFilter extends DomainError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The segments of a field: `vars[2].key` is `vars`, `2`, `key`. */
export function fieldSegments(field: string): string[] {
  return field.split(/[.[\]]+/).filter((segment) => segment !== '');
}

/** A required field left out, or given as null: `name can't be blank`. */
export function blank(field: string): Invalid {
  return new Invalid(field, `${field} can't be blank`);
}
