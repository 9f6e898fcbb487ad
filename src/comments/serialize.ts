import { API_PREFIX, type Resource } from '../jsonapi/document.js';
import type { Comment } from './store.js';

export function serializeComment(comment: Comment): Resource {
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
