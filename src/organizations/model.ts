/** An organization. Its API id is its name; `id` is the internal one. */
export interface Organization {
  id: string;
  name: string;
  email: string;
  created_at: string;
}

/** What a client may set on an organization; on create, both are required. */
export interface OrganizationChanges {
  name?: string | undefined;
  email?: string | undefined;
}
