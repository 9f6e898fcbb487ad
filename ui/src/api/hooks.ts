import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, type Document } from './client';
import type { Organization } from './types';

/** GET /api/v2`path`, cached under its path. */
export function useApi<D>(path: string | null): UseQueryResult<Document<D>> {
  return useQuery({ queryKey: [path], queryFn: () => api<D>('GET', path!), enabled: path !== null });
}

/** Whether the caller may create the organization's own variable sets: its `can-manage-varsets`. */
export function useCanManageVarsets(org: string): boolean {
  const organization = useApi<Organization>(`/organizations/${encodeURIComponent(org)}`);
  return organization.data?.data.attributes.permissions['can-manage-varsets'] === true;
}
