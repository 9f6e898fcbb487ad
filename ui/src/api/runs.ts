import { answer, api } from './client';

/** Adds a comment to the run. */
export function addComment(runId: string, body: string) {
  return answer(
    api.POST('/api/v2/runs/{id}/comments', {
      params: { path: { id: runId } },
      body: { data: { type: 'comments', attributes: { body } } },
    }),
  );
}
