/** Whose token it is: a team's or an organization's, each having one at most. */
export type TokenOwner = { kind: 'team'; organizationId: string; teamId: string } | { kind: 'organization'; organizationId: string };

/** A stored token, without its secret (only the secret's hash is kept). */
export interface Token {
  id: string;
  kind: 'site-admin' | 'team' | 'organization';
  organization_id: string | null;
  team_id: string | null;
  description: string;
  created_at: string;
  expired_at: string | null;
}
