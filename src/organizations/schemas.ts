import Type from 'typebox';
import { Maybe, Nullable, Resource, ResourceBody, ToOne, ToOneInput } from '../jsonapi/schemas.js';
import { ORGANIZATION_PERMISSIONS } from '../auth/permissions.js';
import { ENTITLEMENTS } from './entitlements.js';
import { COLLABORATOR_AUTH_POLICIES, EXECUTION_MODES } from './model.js';

const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
/** Minutes, up to two weeks. */
const Minutes = Type.Integer({ minimum: 5, maximum: 20160 });

export const OrganizationBody = ResourceBody(
  'organizations',
  {
    name: Maybe(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'letters, numbers, "-" and "_"; the organization\'s id',
      }),
    ),
    email: Maybe(Type.String({ minLength: 1, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' })),
    'session-timeout': Maybe(Minutes),
    'session-remember': Maybe(Minutes),
    'collaborator-auth-policy': Maybe(oneOf(COLLABORATOR_AUTH_POLICIES)),
    'cost-estimation-enabled': Maybe(Type.Boolean()),
    'send-passing-statuses-for-untriggered-speculative-plans': Maybe(Type.Boolean()),
    'aggregated-commit-status-enabled': Maybe(Type.Boolean()),
    'speculative-plan-management-enabled': Maybe(Type.Boolean()),
    'assessments-enforced': Maybe(Type.Boolean()),
    'allow-force-delete-workspaces': Maybe(Type.Boolean()),
    'default-execution-mode': Maybe(oneOf(EXECUTION_MODES)),
    'owners-team-saml-role-id': Maybe(Type.String({ maxLength: 255 })),
    'user-tokens-enabled': Maybe(Type.Boolean()),
  },
  { 'default-agent-pool': Type.Optional(ToOneInput('agent-pools')) },
);

const Flag = Type.Boolean();

export const OrganizationResource = Resource(
  'organizations',
  {
    name: Type.String(),
    email: Type.String(),
    'created-at': Type.String(),
    'external-id': Type.String(),
    'session-timeout': Nullable(Type.Integer()),
    'session-remember': Nullable(Type.Integer()),
    'collaborator-auth-policy': Type.String(),
    'cost-estimation-enabled': Flag,
    'send-passing-statuses-for-untriggered-speculative-plans': Flag,
    'aggregated-commit-status-enabled': Flag,
    'speculative-plan-management-enabled': Flag,
    'assessments-enforced': Flag,
    'allow-force-delete-workspaces': Flag,
    'default-execution-mode': Type.String(),
    'owners-team-saml-role-id': Nullable(Type.String()),
    'user-tokens-enabled': Flag,
    'saml-enabled': Flag,
    'two-factor-conformant': Flag,
    'is-in-degraded-mode': Flag,
    'is-unified': Flag,
    'stacks-enabled': Flag,
    'enforce-hyok': Flag,
    'max-ttl-enabled': Flag,
    'trial-expires-at': Type.Null(),
    'plan-expired': Flag,
    'plan-expires-at': Type.Null(),
    'plan-is-trial': Flag,
    'plan-is-enterprise': Flag,
    permissions: Type.Object(Object.fromEntries(ORGANIZATION_PERMISSIONS.map((name) => [name, Type.Boolean()]))),
  },
  {
    'default-project': ToOne('projects'),
    'default-agent-pool': ToOne('agent-pools'),
    'entitlement-set': ToOne('entitlement-sets'),
  },
);

const entitlement = (value: boolean | null) => (value === null ? Type.Null() : Type.Boolean());

export const EntitlementSetResource = Resource(
  'entitlement-sets',
  Object.fromEntries(Object.entries(ENTITLEMENTS).map(([name, value]) => [name, entitlement(value)])),
);

export const OrganizationParams = Type.Object({ name: Type.String() });
