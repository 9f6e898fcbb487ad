import type { paths } from './schema';

type JsonApi = 'application/vnd.api+json';

/** The body of the successful answer of `method` on `path`, as the generated schema gives it. */
type Answer<P extends keyof paths, M extends 'get' | 'post' | 'patch'> = paths[P][M] extends {
  responses: { [status in 200 | 201]?: { content: { [media in JsonApi]: infer Body } } };
}
  ? Body
  : never;
/** The request body of `method` on `path`. */
export type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P][M] extends {
  requestBody?: { content: { [media in JsonApi]: infer B } };
}
  ? B
  : never;

type Item<P extends keyof paths> = Answer<P, 'get'> extends { data: (infer D)[] } ? D : never;
type One<P extends keyof paths> = Answer<P, 'get'> extends { data: infer D } ? D : never;

/** `meta.pagination` of a list. */
export type Pagination = NonNullable<NonNullable<Answer<'/api/v2/organizations', 'get'>['meta']>['pagination']>;

export type Organization = One<'/api/v2/organizations/{name}'>;
export type Project = One<'/api/v2/projects/{id}'>;
export type Workspace = One<'/api/v2/workspaces/{id}'>;
export type Varset = One<'/api/v2/varsets/{id}'>;
export type Variable = Item<'/api/v2/varsets/{id}/relationships/vars'> | Item<'/api/v2/workspaces/{id}/vars'>;
/** What a variable is, leaving out when and in which version it was written. */
export type VariableAttributes = Pick<
  Variable['attributes'],
  'key' | 'value' | 'description' | 'category' | 'hcl' | 'sensitive'
>;
export type Category = VariableAttributes['category'];

export type EffectiveVariable = Item<'/api/v2/workspaces/{id}/effective-variables'>;
export type EffectiveValue = EffectiveVariable['attributes']['overridden'][number];
export type Source = EffectiveValue['source'];
/** `meta.precedence` of effective variables with `explain=true`: every level, highest first. */
export type PrecedenceLevel = NonNullable<
  NonNullable<Answer<'/api/v2/workspaces/{id}/effective-variables', 'get'>['meta']>['precedence']
>[number];
/** `meta.dynamic-credentials` with `explain=true`: each configuration of dynamic credentials the env variables turn on. */
export type DynamicCredentialsEntry = NonNullable<
  NonNullable<Answer<'/api/v2/workspaces/{id}/effective-variables', 'get'>['meta']>['dynamic-credentials']
>[number];

export type Run = One<'/api/v2/runs/{id}'>;
export type Comment = Item<'/api/v2/runs/{id}/comments'>;

export type VarsetVersion = Item<'/api/v2/varsets/{id}/versions'>;
/** One thing a set's version changed: a union on `target` and `action`. */
export type VersionChange = VarsetVersion['attributes']['changes'][number];
/** A variable as a version's change shows it whole: `value` is null when it is sensitive. */
export type ChangedVariable = NonNullable<
  Extract<VersionChange, { action: 'added' | 'removed'; target: 'variable' }>['before']
>;

export type ImpactDocument = Answer<'/api/v2/varsets/{id}/actions/preview', 'post'>;
/** How a previewed write to a set would change one workspace's effective variables. */
export type WorkspaceImpact = ImpactDocument['data'][number];
export type ImpactChange = WorkspaceImpact['attributes']['changes'][number];
/** A winner before or after a previewed write: `value` is null when it is sensitive or not readable. */
export type ImpactValue = NonNullable<ImpactChange['before']>;

type Linkage = { id: string; type: string };
type Related = {
  relationships?: { [name: string]: { data?: Linkage | Linkage[] | null; links?: unknown } | undefined };
};

/** The id of a to-one relationship, or null. */
export function related(resource: Related, name: string): Linkage | null {
  const data = resource.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data : null;
}

/** The ids of a to-many relationship. */
export function relatedIds(resource: Related, name: string): string[] {
  const data = resource.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
}

/** A set's included workspaces and projects (`?include=workspaces,projects`); the schema leaves included resources open. */
export function includedPlaces(
  document: { included?: unknown[] } | undefined,
): { id: string; type: string; attributes: { name: string } }[] {
  return (document?.included ?? []) as { id: string; type: string; attributes: { name: string } }[];
}
