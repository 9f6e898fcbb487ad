/** A comment on a run, made together with the run's `commented` event. */
export interface Comment {
  id: string;
  run_id: string;
  run_event_id: string;
  body: string;
  created_at: string;
}

/** Longest comment body, in characters, after surrounding whitespace is trimmed. */
export const BODY_MAX = 10_000;
