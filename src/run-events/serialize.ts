import type { Static } from 'typebox';
import { API_PREFIX, toOne } from '../jsonapi/document.js';
import type { RunEventWithComment } from './model.js';
import type { RunEventResource } from './schemas.js';

/**
 * A run event. Its actor is a user in HCP Terraform; varsetd's tokens (site administrator,
 * team, organization) stand for no user, so `actor` is always empty.
 */
export function serializeRunEvent({ event, comment }: RunEventWithComment): Static<typeof RunEventResource> {
  return {
    id: event.id,
    type: 'run-events',
    attributes: {
      action: event.action,
      'created-at': event.created_at,
      description: event.description,
    },
    relationships: {
      actor: toOne('users', null),
      comment: toOne('comments', comment?.id ?? null),
    },
    links: { self: `${API_PREFIX}/run-events/${event.id}` },
  };
}
