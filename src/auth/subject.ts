/** Who is calling, as established from the bearer token. */
export type Subject =
  | { kind: 'site-admin'; tokenId: string }
  | { kind: 'team'; tokenId: string; teamId: string; organizationId: string }
  | { kind: 'organization'; tokenId: string; organizationId: string };
