import { answer, api } from './client';

/** The first organization `token` sees, and how many it sees: the check of a token before it is kept. */
export function firstOrganization(token: string) {
  return answer(
    api.GET('/api/v2/organizations', {
      params: { query: { 'page[size]': '1' } },
      headers: { Authorization: `Bearer ${token}` },
    }),
  );
}
