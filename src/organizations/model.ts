/** An organization. Its API id is its name; `id` is the internal one. */
export interface Organization {
  id: string;
  name: string;
  email: string;
  created_at: string;
}

export const EXECUTION_MODES = ['remote', 'local', 'agent'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export const COLLABORATOR_AUTH_POLICIES = ['password', 'two_factor_mandatory'] as const;
export type CollaboratorAuthPolicy = (typeof COLLABORATOR_AUTH_POLICIES)[number];

/**
 * What an organization's clients may set besides its name and email. varsetd keeps them and
 * answers them; `allow-force-delete-workspaces` and `user-tokens-enabled` (false refuses the
 * site-admin token, src/auth/decisions.ts) change what it does, the others are about what it does
 * not have (VCS, cost estimation, health assessments, user sessions).
 */
export interface OrganizationSettings {
  'session-timeout': number | null;
  'session-remember': number | null;
  'collaborator-auth-policy': CollaboratorAuthPolicy;
  'cost-estimation-enabled': boolean;
  'send-passing-statuses-for-untriggered-speculative-plans': boolean;
  'aggregated-commit-status-enabled': boolean;
  'speculative-plan-management-enabled': boolean;
  'assessments-enforced': boolean;
  'allow-force-delete-workspaces': boolean;
  'default-execution-mode': ExecutionMode;
  'owners-team-saml-role-id': string | null;
  'user-tokens-enabled': boolean;
}

/** HCP Terraform's values for an organization created without them. */
export const DEFAULT_ORGANIZATION_SETTINGS: Readonly<OrganizationSettings> = {
  'session-timeout': null,
  'session-remember': null,
  'collaborator-auth-policy': 'password',
  'cost-estimation-enabled': true,
  'send-passing-statuses-for-untriggered-speculative-plans': false,
  'aggregated-commit-status-enabled': false,
  'speculative-plan-management-enabled': true,
  'assessments-enforced': false,
  'allow-force-delete-workspaces': false,
  'default-execution-mode': 'remote',
  'owners-team-saml-role-id': null,
  'user-tokens-enabled': true,
};

/** An organization as its own responses show it: with its settings and its default project. */
export interface OrganizationRecord extends Organization {
  settings: OrganizationSettings;
  default_project_id: string;
}

/** What a client may set on an organization; on create, the name and email are required. */
export interface OrganizationChanges {
  name?: string | undefined;
  email?: string | undefined;
  settings: Partial<OrganizationSettings>;
  /** A default agent pool named in the request's relationships; varsetd has none. */
  defaultAgentPoolId?: string | undefined;
}

/**
 * For stores reading a row together with its organization in one statement: the organization's
 * columns to select from the joined `organizations` table, and `splitOrganization` to take them
 * apart again.
 */
export const ORGANIZATION_COLUMNS = [
  'organizations.name as organization_name',
  'organizations.email as organization_email',
  'organizations.created_at as organization_created_at',
] as const;

type WithOrganization = {
  organization_id: string;
  organization_name: string;
  organization_email: string;
  organization_created_at: string;
};

export function splitOrganization<R extends WithOrganization>(
  joined: R,
): { row: Omit<R, Exclude<keyof WithOrganization, 'organization_id'>>; organization: Organization } {
  const { organization_name, organization_email, organization_created_at, ...row } = joined;
  return {
    row,
    organization: {
      id: row.organization_id,
      name: organization_name,
      email: organization_email,
      created_at: organization_created_at,
    },
  };
}
