import Type from 'typebox';
import { Maybe, Related, Resource, ResourceBody, ToMany, ToOne, ToOneInput } from '../jsonapi/schemas.js';

export const MESSAGE_MAX = 10_000;
const VARIABLE_KEY_MAX = 128;
const VARIABLE_VALUE_MAX = 256 * 1024;

const RunVariable = Type.Object({
  key: Type.String({ minLength: 1, maxLength: VARIABLE_KEY_MAX }),
  value: Type.String({ maxLength: VARIABLE_VALUE_MAX, description: 'an HCL expression' }),
});

export const RunBody = ResourceBody(
  'runs',
  {
    message: Maybe(Type.String({ maxLength: MESSAGE_MAX })),
    'is-destroy': Maybe(Type.Boolean()),
    variables: Maybe(Type.Array(RunVariable)),
  },
  {
    workspace: Type.Optional(ToOneInput('workspaces')),
    'configuration-version': Type.Optional(ToOneInput('configuration-versions')),
  },
);

const always = (value: boolean) => Type.Boolean({ description: value ? 'always true here' : 'always false here' });

export const RunResource = Resource(
  'runs',
  {
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('planning'),
      Type.Literal('planned'),
      Type.Literal('errored'),
    ]),
    'status-timestamps': Type.Object({
      'planning-at': Type.Optional(Type.String()),
      'planned-at': Type.Optional(Type.String()),
      'errored-at': Type.Optional(Type.String()),
    }),
    message: Type.String(),
    source: Type.Literal('tfe-api'),
    'trigger-reason': Type.Literal('manual'),
    'created-at': Type.String(),
    'canceled-at': Type.Null(),
    'is-destroy': Type.Boolean(),
    'plan-only': Type.Boolean(),
    'auto-apply': always(false),
    'allow-empty-apply': always(false),
    'has-changes': always(false),
    refresh: always(true),
    'refresh-only': always(false),
    'save-plan': always(false),
    'position-in-queue': Type.Integer(),
    'target-addrs': Type.Null(),
    'replace-addrs': Type.Null(),
    variables: Type.Array(RunVariable),
    actions: Type.Object({
      'is-cancelable': Type.Boolean(),
      'is-confirmable': Type.Boolean(),
      'is-discardable': Type.Boolean(),
      'is-force-cancelable': Type.Boolean(),
    }),
    permissions: Type.Object({
      'can-apply': Type.Boolean(),
      'can-cancel': Type.Boolean(),
      'can-comment': Type.Boolean(),
      'can-discard': Type.Boolean(),
      'can-force-cancel': Type.Boolean(),
      'can-force-execute': Type.Boolean(),
      'can-override-policy-check': Type.Boolean(),
    }),
  },
  {
    workspace: ToOne('workspaces'),
    'configuration-version': ToOne('configuration-versions'),
    'run-events': ToMany('run-events'),
    comments: Related,
  },
);

/** `POST /runs/:id/actions/finish`: how the command of the run ended (varsetd's own action). */
export const FinishRunBody = Type.Object({ 'exit-code': Type.Integer({ minimum: 0 }) });

/** A run's variable as given to the process that runs it, its sensitive value opened (varsetd's own resource). */
export const OpenedVariableResource = Resource(
  'opened-variables',
  {
    key: Type.String(),
    category: Type.Union([Type.Literal('terraform'), Type.Literal('env')]),
    value: Type.String(),
    hcl: Type.Boolean(),
    sensitive: Type.Boolean(),
  },
  undefined,
  null,
);
