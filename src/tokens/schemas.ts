import Type from 'typebox';
import { Maybe, Nullable, OptionalBody, Resource, ResourceBody, ToOne } from '../jsonapi/schemas.js';

/**
 * The optional attributes of a new token; the body may be left out altogether. go-tfe's
 * options carry no resource type, so it sends an empty one.
 */
export const TokenBody = OptionalBody(
  ResourceBody(['authentication-tokens', ''], {
    description: Maybe(Type.String({ maxLength: 512 })),
    'expired-at': Maybe(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
        description:
          'when the token stops working: an ISO 8601 date and time in the future, e.g. 2030-01-31T12:00:00.000Z',
      }),
    ),
  }),
);

export const TokenResource = Resource(
  'authentication-tokens',
  {
    'created-at': Type.String(),
    'last-used-at': Nullable(Type.String()),
    description: Nullable(Type.String()),
    /** Only in the response that creates the token. */
    token: Nullable(Type.String()),
    'expired-at': Nullable(Type.String()),
  },
  {
    /** A team, an organization or a user (the site administrator); empty for tokens issued before varsetd kept it. */
    'created-by': Type.Object({
      data: Nullable(
        Type.Object({
          id: Type.String(),
          type: Type.Union([Type.Literal('teams'), Type.Literal('organizations'), Type.Literal('users')]),
        }),
      ),
    }),
    team: Type.Optional(ToOne('teams')),
  },
  null,
);

/**
 * varsetd's own: who the request's token stands for, as the web UI's header shows it. `kind` is
 * `team`, `organization` or `site-admin`; `description` the words histories and the audit trail
 * use (`team owners (token "CI")`); `organization-name` null for the site administrator.
 */
export const CurrentTokenResource = Resource(
  'current-tokens',
  {
    kind: Type.Union([Type.Literal('team'), Type.Literal('organization'), Type.Literal('site-admin')]),
    description: Type.String(),
    'organization-name': Nullable(Type.String()),
  },
  undefined,
  null,
);
