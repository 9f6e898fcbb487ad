import type { Comment } from '../comments/model.js';
import type { RunEvent } from '../runs/model.js';

export interface RunEventWithComment {
  event: RunEvent;
  /** The comment made with this event, for `commented` events. */
  comment: Comment | null;
}

/** What `include` may name on run events. An actor is never a user here, so `actor` adds nothing. */
export const RUN_EVENT_INCLUDES = ['actor', 'comment'] as const;
