import type { Selectable } from 'kysely';
import type { TokenTable } from '../db/schema.js';
import { toOne, type Resource } from '../jsonapi/document.js';

/** A team or organization token. `secret` is given only in the response that creates it. */
export function serializeToken(row: Selectable<TokenTable>, secret?: string): Resource {
  return {
    id: row.id,
    type: 'authentication-tokens',
    attributes: {
      'created-at': row.created_at,
      'last-used-at': null,
      description: row.description === '' ? null : row.description,
      token: secret ?? null,
      'expired-at': row.expired_at,
    },
    relationships: row.team_id === null ? {} : { team: toOne('teams', row.team_id) },
  };
}
