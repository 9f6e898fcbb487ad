import Type from 'typebox';
import { Maybe, Nullable, Resource, ResourceBody, ToOne } from '../jsonapi/schemas.js';
import { DESTINATION_TYPES, MAX_NAME_LENGTH, MAX_TOKEN_LENGTH, MAX_URL_LENGTH } from './model.js';

export const CONFIGURATION_TYPE = 'varset-notification-configurations';

const attributes = {
  name: Maybe(Type.String({ maxLength: MAX_NAME_LENGTH })),
  'destination-type': Maybe(
    Type.Enum([...DESTINATION_TYPES], {
      description: 'generic: JSON signed with the token; slack: a Slack incoming-webhook message',
    }),
  ),
  url: Maybe(Type.String({ maxLength: MAX_URL_LENGTH, description: 'an http or https URL' })),
  token: Maybe(
    Type.String({
      maxLength: MAX_TOKEN_LENGTH,
      description: 'write-only: the HMAC-SHA512 key of X-TFE-Notification-Signature; an empty string removes it',
    }),
  ),
  enabled: Maybe(Type.Boolean()),
  triggers: Maybe(
    Type.Array(Type.String(), { description: 'varset:created, varset:changed, varset:deleted, varset:rolled-back' }),
  ),
};

export const ConfigurationBody = ResourceBody(CONFIGURATION_TYPE, attributes);

export const DeliveryResponseSchema = Type.Object({
  url: Type.String(),
  code: Nullable(Type.Integer({ description: "the response's HTTP status; null when none came" })),
  body: Type.String({ description: 'the first 1,000 characters of the response body' }),
  headers: Type.Record(Type.String(), Type.Array(Type.String())),
  error: Nullable(Type.String({ description: 'why no response came, or why it was not sent' })),
  successful: Type.Boolean(),
  'sent-at': Type.String(),
  'varset-id': Nullable(Type.String({ description: 'the set whose change was sent; null for a verification' })),
  'version-number': Nullable(Type.Integer()),
  attempt: Nullable(Type.Integer({ description: "the delivery's attempt, from 1; null for a verification" })),
});

export const ConfigurationResource = Resource(
  CONFIGURATION_TYPE,
  {
    name: Type.String(),
    'destination-type': Type.Enum([...DESTINATION_TYPES]),
    url: Type.String(),
    'has-token': Type.Boolean({ description: 'whether deliveries are signed (the token itself is never shown)' }),
    enabled: Type.Boolean(),
    triggers: Type.Array(Type.String()),
    'created-at': Type.String(),
    'updated-at': Type.String(),
    'delivery-responses': Type.Array(DeliveryResponseSchema, {
      description: 'the newest attempts, newest first (at most 10)',
    }),
  },
  { organization: ToOne('organizations') },
);
