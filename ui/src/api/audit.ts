import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { getPlainJson, query } from './client';

/** One event of GET /organization/audit-trail, in HCP Terraform's shape (plain JSON, snake case). */
export interface AuditEvent {
  id: string;
  timestamp: string;
  auth: { accessor_id: string; description: string; type: string; organization_id: string };
  request: { id: string | null };
  resource: { id: string; type: string; action: string; meta: Record<string, string | number | boolean | null> | null };
}

export interface AuditPagination {
  current_page: number;
  prev_page: number | null;
  next_page: number | null;
  total_pages: number;
  total_count: number;
}

export interface AuditTrail {
  data: AuditEvent[];
  pagination: AuditPagination;
}

/**
 * The path of a page of `org`'s trail. The organization is always named: the site administrator
 * must name it, and an organization token may name its own.
 */
function trailPath(org: string, page: { since?: string; number?: number; size: number }): string {
  return `/organization/audit-trail${query({ 'filter[organization][name]': org, since: page.since, 'page[number]': page.number, 'page[size]': page.size })}`;
}

export function useAuditTrail(org: string, page: { since?: string; number: number; size: number }): UseQueryResult<AuditTrail> {
  const path = trailPath(org, page);
  return useQuery({ queryKey: [path], queryFn: () => getPlainJson<AuditTrail>(path) });
}

/**
 * Whether the signed-in token may read `org`'s trail (the organization's token and the site
 * administrator may; team tokens get a 404), asked once with the smallest page. What a token may
 * read does not change while it is signed in.
 */
export function useCanReadAuditTrail(org: string | undefined): boolean {
  const path = org ? trailPath(org, { size: 1 }) : null;
  const probe = useQuery({ queryKey: [path], queryFn: () => getPlainJson<AuditTrail>(path!), enabled: path !== null, staleTime: Infinity });
  return probe.isSuccess;
}
