/**
 * Every query's key, in one place. Keys nest, so a write can invalidate exactly what it changed:
 * `['varsets', id]` covers a set's detail, its variables and its versions, and each list of sets
 * starts with `['varset-lists']` whichever organization, project or workspace it is of.
 */
type Page = { number?: number; size?: number; q?: string; arrange?: Record<string, string> };

export const queryKeys = {
  /** Who the signed-in token stands for. */
  currentToken: ['current-token'] as const,
  organizations: {
    list: (page: Page) => ['organizations', 'list', page] as const,
    detail: (name: string) => ['organizations', name] as const,
    /** The organization's projects or workspaces, as listed and searched. */
    children: (name: string, kind: 'projects' | 'workspaces', params: Record<string, unknown>) =>
      ['organizations', name, kind, params] as const,
  },
  projects: {
    detail: (id: string) => ['projects', id] as const,
  },
  workspaces: {
    detail: (id: string) => ['workspaces', id] as const,
    variables: (id: string) => ['workspaces', id, 'vars'] as const,
    runs: (id: string, page: Page) => ['workspaces', id, 'runs', page] as const,
  },
  varsets: {
    /** Everything read of one set. */
    of: (id: string) => ['varsets', id] as const,
    detail: (id: string) => ['varsets', id, 'detail'] as const,
    variables: (id: string, page?: Page) => ['varsets', id, 'vars', page ?? {}] as const,
    versions: (id: string, page: Page) => ['varsets', id, 'versions', page] as const,
    rollbackDryRun: (id: string, versionId?: string, skipMissing?: boolean) =>
      ['varsets', id, 'rollback-dry-run', ...(versionId === undefined ? [] : [versionId, skipMissing])] as const,
    deletionPreview: (id: string, variableId: string) => ['varsets', id, 'deletion-preview', variableId] as const,
  },
  /** Lists of sets: an organization's, a project's, a workspace's. */
  varsetLists: {
    all: ['varset-lists'] as const,
    list: (owner: 'organizations' | 'projects' | 'workspaces', id: string, page: Page) =>
      ['varset-lists', owner, id, page] as const,
    /** An organization's deleted sets: a restore or a deletion changes it as it changes the other lists. */
    deleted: (org: string, page: Page) => ['varset-lists', 'deleted', org, page] as const,
  },
  /** A workspace's or a run's effective variables; a run's are those stored with it, which no later write changes. */
  effectiveVariables: {
    ofWorkspaces: ['effective-variables', 'workspaces'] as const,
    of: (owner: 'workspaces' | 'runs', id: string) => ['effective-variables', owner, id] as const,
  },
  runs: {
    detail: (id: string) => ['runs', id] as const,
    comments: (id: string, page?: Page) =>
      page ? (['runs', id, 'comments', page] as const) : (['runs', id, 'comments'] as const),
  },
  auditTrail: (
    org: string,
    page: { since?: string | undefined; number?: number; size: number; filters?: Record<string, string> },
  ) => ['audit-trail', org, page] as const,
};
