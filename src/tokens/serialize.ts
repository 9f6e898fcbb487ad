import type { Static } from 'typebox';
import type { Token } from '../auth/tokens.js';
import { toOne } from '../jsonapi/document.js';
import type { CurrentTokenResource, TokenResource } from './schemas.js';
import type { CurrentToken } from './service.js';

/**
 * Who created a token, as HCP Terraform's `created-by` names it: a team, an organization (by
 * its name, its id in the API) or a user. varsetd has no users: the site administrator is
 * the user `site-admin`. Tokens issued before varsetd kept their creator have none.
 */
function createdBy(
  token: Token,
  organizationName: string,
): Static<typeof TokenResource>['relationships']['created-by'] {
  switch (token.created_by_kind) {
    case 'team':
      return token.created_by_id === null ? { data: null } : { data: { type: 'teams', id: token.created_by_id } };
    case 'organization':
      return { data: { type: 'organizations', id: organizationName } };
    case 'site-admin':
      return { data: { type: 'users', id: 'site-admin' } };
    default:
      return { data: null };
  }
}

/**
 * A team or organization token. `secret` is given only in the response that creates it. A
 * legacy token's empty description is answered as none; a described team token's as written.
 */
export function serializeToken(token: Token, organizationName: string, secret?: string): Static<typeof TokenResource> {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      'created-at': token.created_at,
      'last-used-at': token.last_used_at,
      description: token.legacy && token.description === '' ? null : token.description,
      token: secret ?? null,
      'expired-at': token.expired_at,
    },
    relationships: {
      'created-by': createdBy(token, organizationName),
      ...(token.team_id === null ? {} : { team: toOne('teams', token.team_id) }),
    },
  };
}

/** Who the caller's token stands for (`describeCurrentToken`). */
export function serializeCurrentToken(current: CurrentToken): Static<typeof CurrentTokenResource> {
  return {
    id: current.tokenId,
    type: 'current-tokens',
    attributes: { kind: current.kind, description: current.description, 'organization-name': current.organizationName },
  };
}
