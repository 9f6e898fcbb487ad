import type { Resource } from './client';

/** The caller's `permissions` on a resource, as the server decides them. */
export type Permissions = Record<string, boolean>;

export type Organization = Resource<{ name: string; email: string; permissions: Permissions }>;
export type Project = Resource<{ name: string; description?: string; 'is-default'?: boolean }>;
export type Workspace = Resource<{ name: string; description?: string | null; permissions: Permissions }>;
export type Varset = Resource<{
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  'updated-at': string;
  'var-count': number;
  'workspace-count': number;
  'project-count': number;
  permissions: Permissions;
}>;
export type Category = 'terraform' | 'env';
export interface VariableAttributes {
  key: string;
  value: string | null;
  description: string | null;
  category: Category;
  hcl: boolean;
  sensitive: boolean;
}
export type Variable = Resource<VariableAttributes>;

export interface VarsetRef {
  id: string;
  name: string;
  scope: 'global' | 'project' | 'workspace';
  owner: 'organization' | 'project';
  priority: boolean;
  /** The set's version the value is of; null when no write has changed the set since versions were kept. */
  version?: number | null;
}
export interface Source {
  type: 'workspace' | 'run' | 'varset';
  precedence: number;
  /** With `explain=true`: the level's name in words. */
  'level-name'?: string;
  varset?: VarsetRef;
}
export interface EffectiveValue {
  value: string | null;
  description: string;
  hcl: boolean;
  sensitive: boolean;
  source: Source;
}
export type EffectiveVariable = Resource<
  EffectiveValue & { key: string; category: Category; overridden: EffectiveValue[]; 'decided-by'?: 'only-value' | 'precedence' | 'name' | 'order'; reason?: string }
>;
/** `meta.precedence` of effective variables with `explain=true`: every level, highest first. */
export interface PrecedenceLevel {
  level: number;
  name: string;
}
export type Run = Resource<{
  status: string;
  message: string;
  'created-at': string;
  permissions: Permissions;
}>;
export type Comment = Resource<{ body: string }>;

/** A variable as a version's change shows it: `value` is null when it is sensitive. */
export type ChangedVariable = Omit<VariableAttributes, 'description'> & { description: string };
/** One thing a set's version changed, as GET /varsets/:id/versions lists them. */
export type VersionChange =
  | { target: 'varset'; action: 'changed'; field: 'name' | 'description' | 'global' | 'priority'; before: string | boolean | null; after: string | boolean | null }
  | { target: 'variable'; id: string; key: string; category: Category; action: 'added' | 'removed'; before: ChangedVariable | null; after: ChangedVariable | null }
  | { target: 'variable'; id: string; key: string; category: Category; action: 'changed'; field: string; before: string | boolean | null; after: string | boolean | null; sensitive: boolean }
  | { target: 'workspace' | 'project'; id: string; action: 'added' | 'removed' };
export type VarsetVersion = Resource<{
  number: number;
  action: 'create' | 'update' | 'delete' | 'rollback';
  'rolled-back-to': number | null;
  'varset-name': string;
  'created-at': string;
  actor: { 'token-id': string; kind: string; 'team-id': string | null; description: string };
  'request-id': string;
  changes: VersionChange[];
}>;

/** The id of a to-one relationship, or null. */
export function related(resource: Resource, name: string): { id: string; type: string } | null {
  const data = resource.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data : null;
}

/** The ids of a to-many relationship. */
export function relatedIds(resource: Resource, name: string): string[] {
  const data = resource.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
}

/** A winner before or after a previewed write: `value` is null when it is sensitive or not readable. */
export interface ImpactValue {
  'variable-id': string;
  value: string | null;
  hcl: boolean;
  sensitive: boolean;
  source: Source;
}
export interface ImpactChange {
  key: string;
  category: Category;
  action: 'added' | 'removed' | 'changed';
  fields: ('value' | 'source' | 'sensitive' | 'hcl')[];
  before: ImpactValue | null;
  after: ImpactValue | null;
}
/** How a previewed write to a set would change one workspace's effective variables. */
export type WorkspaceImpact = Resource<{ 'workspace-name': string; 'variables-readable': boolean; changes: ImpactChange[] }>;
