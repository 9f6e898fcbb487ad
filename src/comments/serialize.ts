import type { Static } from 'typebox';
import { API_PREFIX } from '../jsonapi/document.js';
import type { Comment } from './model.js';
import type { CommentResource } from './schemas.js';

export function serializeComment(comment: Comment): Static<typeof CommentResource> {
  return {
    id: comment.id,
    type: 'comments',
    attributes: { body: comment.body },
    relationships: {
      'run-event': {
        data: { id: comment.run_event_id, type: 'run-events' },
        links: { related: `${API_PREFIX}/run-events/${comment.run_event_id}` },
      },
    },
    links: { self: `${API_PREFIX}/comments/${comment.id}` },
  };
}
