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

/**
 * For stores reading a row together with its organization in one statement: the organization's
 * columns to select from the joined `organizations` table, and `splitOrganization` to take them
 * apart again.
 */
export const ORGANIZATION_COLUMNS = ['organizations.name as organization_name', 'organizations.email as organization_email', 'organizations.created_at as organization_created_at'] as const;

type WithOrganization = { organization_id: string; organization_name: string; organization_email: string; organization_created_at: string };

export function splitOrganization<R extends WithOrganization>(joined: R): { row: Omit<R, Exclude<keyof WithOrganization, 'organization_id'>>; organization: Organization } {
  const { organization_name, organization_email, organization_created_at, ...row } = joined;
  return { row, organization: { id: row.organization_id, name: organization_name, email: organization_email, created_at: organization_created_at } };
}
