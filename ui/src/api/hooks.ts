import { useQuery } from '@tanstack/react-query';
import { answer, api } from './client';
import { queryKeys } from './queryKeys';
import type { Pagination } from './types';

/** What a list of projects or of workspaces has in common. */
type Named = {
  data: { id: string; attributes: { name: string; description?: string | null } }[];
  meta?: { pagination?: Pagination };
};

/** The queries of the UI's pages, each under its key of queryKeys and typed by the generated schema. */

const text = (n: number | undefined) => (n === undefined ? undefined : String(n));
const pageQuery = (page: { number?: number; size?: number }) => ({
  'page[number]': text(page.number),
  'page[size]': text(page.size),
});

export function useOrganizations(page: number) {
  return useQuery({
    queryKey: queryKeys.organizations.list({ number: page }),
    queryFn: () =>
      answer(api.GET('/api/v2/organizations', { params: { query: pageQuery({ number: page, size: 50 }) } })),
  });
}

const organizationQuery = (name: string) => ({
  queryKey: queryKeys.organizations.detail(name),
  queryFn: () => answer(api.GET('/api/v2/organizations/{name}', { params: { path: { name } } })),
});

export function useOrganization(name: string) {
  return useQuery(organizationQuery(name));
}

/** Whether the caller may create the organization's own variable sets: its `can-manage-varsets`. */
export function useCanManageVarsets(org: string): boolean {
  return useOrganization(org).data?.data.attributes.permissions['can-manage-varsets'] === true;
}

/**
 * Whether the caller may restore the organization's deleted sets (and import into it): the owners
 * and the site administrator, whom the organization's `can-update` names, and the organization's
 * own token, which may not update the organization but may do both.
 */
export function useCanRestoreDeletedSets(org: string | undefined): boolean {
  const organization = useQuery({ ...organizationQuery(org ?? ''), enabled: org !== undefined }).data;
  const token = useCurrentToken(org !== undefined).data?.data.attributes;
  return (
    organization?.data.attributes.permissions['can-update'] === true ||
    (org !== undefined && token?.kind === 'organization' && token['organization-name'] === org)
  );
}

/** The organization's projects or workspaces, searched by `search` (e.g. `{ q: 'net' }`). */
export function useOrganizationChildren(
  org: string | null,
  kind: 'projects' | 'workspaces',
  search: Record<string, string>,
  page: { number?: number; size: number },
) {
  const params = { ...search, ...pageQuery(page) };
  return useQuery({
    queryKey: queryKeys.organizations.children(org ?? '', kind, params),
    queryFn: async (): Promise<Named> =>
      kind === 'projects'
        ? answer(
            api.GET('/api/v2/organizations/{organization}/projects', {
              params: { path: { organization: org! }, query: params },
            }),
          )
        : answer(
            api.GET('/api/v2/organizations/{organization}/workspaces', {
              params: { path: { organization: org! }, query: params },
            }),
          ),
    enabled: org !== null,
  });
}

export function useProject(id: string | null) {
  return useQuery({
    queryKey: queryKeys.projects.detail(id ?? ''),
    queryFn: () => answer(api.GET('/api/v2/projects/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

export function useWorkspace(id: string | null) {
  return useQuery({
    queryKey: queryKeys.workspaces.detail(id ?? ''),
    queryFn: () => answer(api.GET('/api/v2/workspaces/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

export function useWorkspaceRuns(id: string, page: number) {
  return useQuery({
    queryKey: queryKeys.workspaces.runs(id, { number: page }),
    queryFn: () =>
      answer(
        api.GET('/api/v2/workspaces/{id}/runs', {
          params: { path: { id }, query: pageQuery({ number: page, size: 10 }) },
        }),
      ),
  });
}

/** A set, with its workspaces and projects included. */
export function useVarset(id: string) {
  return useQuery({
    queryKey: queryKeys.varsets.detail(id),
    queryFn: () =>
      answer(api.GET('/api/v2/varsets/{id}', { params: { path: { id }, query: { include: 'workspaces,projects' } } })),
  });
}

export function useVarsetVersions(id: string, page: { number: number; size: number }, enabled = true) {
  return useQuery({
    queryKey: queryKeys.varsets.versions(id, page),
    queryFn: () =>
      answer(api.GET('/api/v2/varsets/{id}/versions', { params: { path: { id }, query: pageQuery(page) } })),
    enabled,
  });
}

/**
 * The sets of an organization (searched by `q`, filtered and sorted by `arrange`: its
 * `filter[…]` and `sort` parameters), a project or a workspace.
 */
export function useVarsetList(
  owner: 'organizations' | 'projects' | 'workspaces',
  id: string | null,
  page: { number?: number; size: number; q?: string; arrange?: Record<string, string> },
) {
  const query = { ...(page.q !== undefined ? { q: page.q } : {}), ...pageQuery(page) };
  const organizationQuery = { ...query, ...page.arrange };
  return useQuery({
    queryKey: queryKeys.varsetLists.list(owner, id ?? '', page),
    queryFn: () => {
      if (owner === 'organizations')
        return answer(
          api.GET('/api/v2/organizations/{organization}/varsets', {
            params: { path: { organization: id! }, query: organizationQuery },
          }),
        );
      if (owner === 'projects')
        return answer(api.GET('/api/v2/projects/{id}/varsets', { params: { path: { id: id! }, query } }));
      return answer(api.GET('/api/v2/workspaces/{id}/varsets', { params: { path: { id: id! }, query } }));
    },
    enabled: id !== null,
  });
}

/** Who the signed-in token stands for (varsetd's own endpoint); kept while signed in. */
export function useCurrentToken(enabled = true) {
  return useQuery({
    queryKey: queryKeys.currentToken,
    queryFn: () => answer(api.GET('/api/v2/current-token', {})),
    staleTime: Infinity,
    enabled,
  });
}

/** An organization's deleted sets, each as its deletion (the owners', the organization token's and the site administrator's). */
export function useDeletedVarsets(org: string, page: { number: number; size: number }) {
  return useQuery({
    queryKey: queryKeys.varsetLists.deleted(org, page),
    queryFn: () =>
      answer(
        api.GET('/api/v2/organizations/{organization}/deleted-varsets', {
          params: { path: { organization: org }, query: pageQuery(page) },
        }),
      ),
  });
}

/** A workspace's or a run's effective variables, explained. */
export function useEffectiveVariables(owner: 'workspaces' | 'runs', id: string) {
  return useQuery({
    queryKey: queryKeys.effectiveVariables.of(owner, id),
    queryFn: () =>
      owner === 'workspaces'
        ? answer(
            api.GET('/api/v2/workspaces/{id}/effective-variables', {
              params: { path: { id }, query: { explain: 'true' } },
            }),
          )
        : answer(
            api.GET('/api/v2/runs/{id}/effective-variables', { params: { path: { id }, query: { explain: 'true' } } }),
          ),
  });
}

export function useRun(id: string) {
  return useQuery({
    queryKey: queryKeys.runs.detail(id),
    queryFn: () => answer(api.GET('/api/v2/runs/{id}', { params: { path: { id } } })),
  });
}

export function useRunComments(id: string, page: number) {
  return useQuery({
    queryKey: queryKeys.runs.comments(id, { number: page }),
    queryFn: () =>
      answer(
        api.GET('/api/v2/runs/{id}/comments', {
          params: { path: { id }, query: pageQuery({ number: page, size: 50 }) },
        }),
      ),
  });
}
