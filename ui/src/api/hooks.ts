import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, type Document } from './client';
import type { Organization, Permissions, Team, Varset, Workspace } from './types';

/** GET /api/v2`path`, cached under its path. */
export function useApi<D>(path: string | null): UseQueryResult<Document<D>> {
  return useQuery({ queryKey: [path], queryFn: () => api<D>('GET', path!), enabled: path !== null });
}

/** What a stated permission says, or undefined where the server states none. */
function stated(permissions: Permissions, ...names: string[]): boolean | undefined {
  if (!permissions) return undefined;
  for (const name of names) if (typeof permissions[name] === 'boolean') return permissions[name];
  return undefined;
}

/**
 * Whether the caller manages the organization: it then may write every set and workspace
 * variable. Told by the organization's `permissions` where the server states them; otherwise by
 * the teams listing, where only owners, the organization token and the site administrator may
 * change a team's organization access.
 */
export function useOrganizationManager(org: string | undefined): boolean {
  const organization = useApi<Organization>(org ? `/organizations/${encodeURIComponent(org)}` : null);
  const fromOrganization = stated(organization.data?.data.attributes.permissions, 'can-manage-varsets', 'can-update');
  const teams = useApi<Team[]>(org && fromOrganization === undefined ? `/organizations/${encodeURIComponent(org)}/teams?page%5Bsize%5D=100` : null);
  if (fromOrganization !== undefined) return fromOrganization;
  return teams.data?.data.some((team) => team.attributes.permissions?.['can-update-organization-access'] === true) ?? false;
}

/** Whether the caller may change this set: its own `permissions` where stated, else as a manager of its organization. */
export function useCanWriteVarset(varset: Varset | undefined, org: string | undefined): boolean {
  const manager = useOrganizationManager(org);
  return stated(varset?.attributes.permissions, 'can-update', 'can-update-variables') ?? manager;
}

export function useCanWriteWorkspaceVariables(workspace: Workspace | undefined, org: string | undefined): boolean {
  const manager = useOrganizationManager(org);
  return stated(workspace?.attributes.permissions, 'can-update-variable', 'can-update-variables') ?? manager;
}

export function useCanDeleteVarset(varset: Varset | undefined, org: string | undefined): boolean {
  const manager = useOrganizationManager(org);
  return stated(varset?.attributes.permissions, 'can-delete', 'can-destroy', 'can-update') ?? manager;
}
