import Type from 'typebox';
import { Maybe, Nullable, OptionalBody, Resource, ResourceBody, ToOne } from '../jsonapi/schemas.js';

/** The attributes are all optional, so no body at all is as good as an empty one. */
export const ConfigurationVersionBody = OptionalBody(
  ResourceBody('configuration-versions', {
    'auto-queue-runs': Maybe(Type.Boolean()),
    speculative: Maybe(Type.Boolean()),
    provisional: Maybe(Type.Boolean()),
  }),
);

export const ConfigurationVersionResource = Resource(
  'configuration-versions',
  {
    'auto-queue-runs': Type.Boolean(),
    error: Nullable(Type.String()),
    'error-message': Nullable(Type.String()),
    provisional: Type.Boolean(),
    source: Type.Literal('tfe-api'),
    speculative: Type.Boolean(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('uploaded'),
      Type.Literal('errored'),
      Type.Literal('archived'),
    ]),
    'status-timestamps': Type.Object({
      'uploaded-at': Type.Optional(Type.String()),
      'errored-at': Type.Optional(Type.String()),
      'archived-at': Type.Optional(Type.String()),
    }),
    'upload-url': Nullable(Type.String({ description: 'only in the response that creates the version' })),
  },
  { 'ingress-attributes': ToOne('ingress-attributes') },
  Type.Object({ self: Type.String(), download: Type.Optional(Type.String()) }),
);
