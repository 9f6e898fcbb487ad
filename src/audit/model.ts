/**
 * The audit trail's events, in HCP Terraform's words: a `resource` of a `type` had an `action`
 * done to it by the holder of a token (`auth`), during a request.
 */

/** Small facts about an event's resource: names, keys, categories. Never a value, a secret or a hash. */
export type AuditMeta = Record<string, string | number | boolean | null>;

/** What a write tells the trail about itself. */
export interface AuditRecord {
  /** The organization whose trail shows the event. */
  organizationId: string;
  type: string;
  id: string;
  action: string;
  meta?: AuditMeta;
}

/**
 * Who wrote: the token, in words, and the request. HCP Terraform's `auth.type` is `Client` for
 * a caller's own credentials (every varsetd token), `Impersonated` and `System` for what varsetd
 * does not do. varsetd adds `CommandLine`: the command line working on the store directly, with
 * no token (`accessorId` is then the operating-system user who ran it, and there is no request).
 */
export interface AuditActor {
  /** `Client` unless given. */
  type?: AuditAuthType;
  accessorId: string;
  description: string;
  requestId: string | null;
}

export interface AuditEvent {
  id: string;
  organizationId: string;
  timestamp: string;
  auth: { type: AuditAuthType; accessorId: string; description: string };
  requestId: string | null;
  resource: { id: string; type: string; action: string; meta: AuditMeta | null };
}

/** What a trail page answers: `since` (inclusive), page number and size. */
export interface TrailQuery {
  since: string | undefined;
  /** Each given must hold: the resource's type and action exactly, part of the token's description ignoring case. */
  filters?: { type?: string; action?: string; who?: string };
  page: { number: number; size: number };
}

export const AUDIT_PAGE_SIZE = 1000;
/** Days an event is kept unless VARSETD_AUDIT_RETENTION_DAYS says otherwise. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
export const AUDIT_AUTH_TYPES = ['Client', 'CommandLine'] as const;
export type AuditAuthType = (typeof AUDIT_AUTH_TYPES)[number];
