import Type from 'typebox';
import { Resource, ToOne } from '../jsonapi/schemas.js';

export const RunEventResource = Resource(
  'run-events',
  {
    action: Type.Union([
      Type.Literal('created'),
      Type.Literal('commented'),
      Type.Literal('planning'),
      Type.Literal('planned'),
      Type.Literal('errored'),
      Type.Literal('variables-opened'),
    ]),
    'created-at': Type.String(),
    description: Type.String(),
  },
  { actor: ToOne('users'), comment: ToOne('comments') },
);
