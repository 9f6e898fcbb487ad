import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { answer, isNotFound, plainApi } from './client';
import { queryKeys } from './queryKeys';

/** A page of GET /organization/audit-trail, in HCP Terraform's shape (plain JSON, snake case). */
export type AuditTrail = NonNullable<Awaited<ReturnType<typeof readTrail>>>;
/** One event of the trail. */
export type AuditEvent = AuditTrail['data'][number];

/** `filters`: the trail's `filter[resource][type]`, `filter[resource][action]` and `filter[auth][description]`. */
type TrailPage = { since?: string | undefined; number?: number; size: number; filters?: Record<string, string> };

/**
 * A page of `org`'s trail. The organization is always named: the site administrator must name
 * it, and an organization token may name its own.
 */
function readTrail(org: string, page: TrailPage) {
  const query = {
    'filter[organization][name]': org,
    since: page.since,
    'page[number]': page.number?.toString(),
    'page[size]': String(page.size),
    ...page.filters,
  };
  return answer(plainApi.GET('/api/v2/organization/audit-trail', { params: { query } }));
}

export function useAuditTrail(org: string, page: TrailPage & { number: number }): UseQueryResult<AuditTrail> {
  return useQuery({ queryKey: queryKeys.auditTrail(org, page), queryFn: () => readTrail(org, page) });
}

/**
 * Whether the signed-in token may read `org`'s trail (the organization's token and the site
 * administrator may; team tokens get a 404), asked once with the smallest page. What a token may
 * read does not change while it is signed in.
 */
export function useCanReadAuditTrail(org: string | undefined): boolean {
  const probe = useQuery({
    queryKey: queryKeys.auditTrail(org ?? '', { size: 1 }),
    // A refusal is an answer too, kept like a success: a team token is not sent asking again on every page.
    queryFn: () =>
      readTrail(org!, { size: 1 }).then(
        () => true,
        (error: unknown) => {
          if (isNotFound(error)) return false;
          throw error;
        },
      ),
    enabled: org !== undefined,
    staleTime: Infinity,
  });
  return probe.data === true;
}
