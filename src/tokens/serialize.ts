import type { Static } from 'typebox';
import type { Token } from '../auth/tokens.js';
import { toOne } from '../jsonapi/document.js';
import type { TokenResource } from './schemas.js';

/** A team or organization token. `secret` is given only in the response that creates it. */
export function serializeToken(token: Token, secret?: string): Static<typeof TokenResource> {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      'created-at': token.created_at,
      'last-used-at': null,
      description: token.description === '' ? null : token.description,
      token: secret ?? null,
      'expired-at': token.expired_at,
    },
    relationships: token.team_id === null ? {} : { team: toOne('teams', token.team_id) },
  };
}
