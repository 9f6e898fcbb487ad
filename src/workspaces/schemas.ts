import Type from 'typebox';
import { Maybe, Nullable, Resource, ResourceBody, ToMany, ToOne, ToOneInput } from '../jsonapi/schemas.js';
import { EffectiveTagBindingsRelationship, TagBindingsLink, TagBindingsRelationship } from '../tag-bindings/schemas.js';

const Flag = () => Maybe(Type.Boolean());
const Paths = (description: string) =>
  Maybe(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100, description }));

/** A tag of a create body or of `POST/DELETE …/relationships/tags`: by name, or by the id of an existing tag. */
export const TagInput = Type.Object({
  type: Type.Literal('tags'),
  id: Type.Optional(Type.String()),
  attributes: Maybe(Type.Object({ name: Maybe(Type.String()) })),
});

export const WorkspaceBody = ResourceBody(
  'workspaces',
  {
    name: Maybe(
      Type.String({
        minLength: 1,
        maxLength: 90,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'letters, numbers, "-" and "_"',
      }),
    ),
    description: Maybe(Type.String({ maxLength: 512 })),
    'allow-destroy-plan': Flag(),
    'assessments-enabled': Flag(),
    'auto-apply': Flag(),
    'auto-apply-run-trigger': Flag(),
    'auto-destroy-at': Type.Optional(
      Nullable(Type.String({ description: 'an ISO 8601 time; null turns auto-destroy off' })),
    ),
    'auto-destroy-activity-duration': Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[1-9][0-9]{0,3}[dh]$',
          description: 'a number of days or hours, e.g. "14d" or "12h"',
        }),
      ),
    ),
    'inherits-project-auto-destroy': Flag(),
    'execution-mode': Maybe(
      Type.String({ description: 'remote or local ("agent" needs agent pools, outside varsetd)' }),
    ),
    'agent-pool-id': Maybe(
      Type.String({ description: 'agent pools are outside varsetd: only an empty value is accepted' }),
    ),
    'file-triggers-enabled': Flag(),
    'global-remote-state': Flag(),
    'project-remote-state': Flag(),
    operations: Flag(),
    'queue-all-runs': Flag(),
    'speculative-enabled': Flag(),
    'source-name': Maybe(Type.String({ maxLength: 255 })),
    'source-url': Maybe(Type.String({ maxLength: 1024 })),
    'structured-run-output-enabled': Flag(),
    'terraform-version': Maybe(Type.String({ maxLength: 100 })),
    'trigger-prefixes': Paths('paths whose changes trigger runs'),
    'trigger-patterns': Paths('glob patterns whose matches trigger runs'),
    'working-directory': Maybe(Type.String({ maxLength: 255 })),
    'hyok-enabled': Flag(),
    'vcs-repo': Type.Optional(
      Type.Unknown({ description: 'VCS connections are outside varsetd: only null is accepted' }),
    ),
    'setting-overwrites': Maybe(Type.Object({ 'execution-mode': Flag(), 'agent-pool': Flag() })),
  },
  {
    project: Maybe(ToOneInput('projects')),
    tags: Maybe(Type.Object({ data: Type.Array(TagInput) })),
    'tag-bindings': Maybe(TagBindingsRelationship),
  },
);

/** `data` of a tag relationship request. */
export const TagsBody = Type.Object({ data: Type.Array(TagInput) });

/** The caller's permissions on the workspace (go-tfe's WorkspacePermissions). */
export const WorkspacePermissions = Type.Object({
  'can-update': Type.Boolean(),
  'can-destroy': Type.Boolean(),
  'can-force-delete': Type.Boolean(),
  'can-queue-run': Type.Boolean(),
  'can-queue-apply': Type.Boolean(),
  'can-queue-destroy': Type.Boolean(),
  'can-read-variable': Type.Boolean(),
  'can-update-variable': Type.Boolean(),
  'can-read-settings': Type.Boolean(),
  'can-read-state-versions': Type.Boolean(),
  'can-lock': Type.Boolean(),
  'can-unlock': Type.Boolean(),
  'can-force-unlock': Type.Boolean(),
  'can-manage-run-tasks': Type.Boolean(),
  'can-manage-hyok': Type.Boolean(),
});

const Polymorphic = Type.Object({
  data: Nullable(Type.Object({ id: Type.String(), type: Type.Union([Type.Literal('teams'), Type.Literal('users')]) })),
});

export const WorkspaceResource = Resource(
  'workspaces',
  {
    name: Type.String(),
    description: Type.String(),
    'created-at': Type.String(),
    'updated-at': Type.String(),
    'allow-destroy-plan': Type.Boolean(),
    'assessments-enabled': Type.Boolean(),
    'auto-apply': Type.Boolean(),
    'auto-apply-run-trigger': Type.Boolean(),
    'auto-destroy-at': Nullable(Type.String()),
    'auto-destroy-activity-duration': Nullable(Type.String()),
    'inherits-project-auto-destroy': Type.Boolean(),
    'can-queue-destroy-plan': Type.Boolean(),
    environment: Type.String(),
    'execution-mode': Type.String(),
    'file-triggers-enabled': Type.Boolean(),
    'global-remote-state': Type.Boolean(),
    'project-remote-state': Type.Boolean(),
    'hyok-enabled': Type.Boolean(),
    locked: Type.Boolean(),
    'lock-reason': Nullable(Type.String()),
    'migration-environment': Type.String(),
    'no-code-upgrade-available': Type.Boolean(),
    operations: Type.Boolean(),
    'queue-all-runs': Type.Boolean(),
    'speculative-enabled': Type.Boolean(),
    source: Type.String(),
    'source-name': Nullable(Type.String()),
    'source-url': Nullable(Type.String()),
    'structured-run-output-enabled': Type.Boolean(),
    'terraform-version': Type.String(),
    'trigger-prefixes': Type.Array(Type.String()),
    'trigger-patterns': Type.Array(Type.String()),
    'vcs-repo': Type.Null(),
    'vcs-repo-identifier': Type.Null(),
    'working-directory': Type.String(),
    'resource-count': Type.Integer(),
    'apply-duration-average': Nullable(Type.Integer()),
    'plan-duration-average': Nullable(Type.Integer()),
    'policy-check-failures': Nullable(Type.Integer()),
    'run-failures': Type.Integer(),
    'workspace-kpis-runs-count': Type.Integer(),
    'tag-names': Type.Array(Type.String()),
    'setting-overwrites': Type.Object({ 'execution-mode': Type.Boolean(), 'agent-pool': Type.Boolean() }),
    permissions: WorkspacePermissions,
    actions: Type.Object({ 'is-destroyable': Type.Boolean() }),
  },
  {
    organization: ToOne('organizations'),
    project: ToOne('projects'),
    vars: ToMany('vars'),
    'current-configuration-version': ToOne('configuration-versions'),
    'current-run': ToOne('runs'),
    'current-state-version': ToOne('state-versions'),
    'agent-pool': ToOne('agent-pools'),
    'ssh-key': ToOne('ssh-keys'),
    'locked-by': Polymorphic,
    'tag-bindings': TagBindingsLink,
    'effective-tag-bindings': EffectiveTagBindingsRelationship,
    'remote-state-consumers': Type.Object({ links: Type.Object({ related: Type.String() }) }),
  },
  Type.Object({ self: Type.String(), 'self-html': Type.String() }),
);
