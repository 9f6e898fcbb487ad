/** Whose token it is: a team's or an organization's. */
export type TokenOwner =
  { kind: 'team'; organizationId: string; teamId: string } | { kind: 'organization'; organizationId: string };

/** The kind of subject that issued a token, and its team or organization id (null for the site administrator). */
export interface TokenCreator {
  kind: 'site-admin' | 'team' | 'organization';
  id: string | null;
}

/** A stored token, without its secret (only the secret's hash is kept). */
export interface Token {
  id: string;
  kind: 'site-admin' | 'team' | 'organization';
  organization_id: string | null;
  team_id: string | null;
  description: string;
  created_at: string;
  expired_at: string | null;
  /** The one token of its team or organization that the singular endpoints replace; a team's other tokens have a description each. */
  legacy: boolean;
  /** Null for tokens issued before varsetd kept their creator. */
  created_by_kind: TokenCreator['kind'] | null;
  created_by_id: string | null;
  last_used_at: string | null;
}
