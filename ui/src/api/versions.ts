import { answer, api } from './client';
import type { VarsetVersion } from './types';

/** A page of a set's versions, newest first (they are numbered without a gap). */
export async function setVersions(setId: string, page: { number: number; size: number }): Promise<VarsetVersion[]> {
  const query = { 'page[number]': String(page.number), 'page[size]': String(page.size) };
  return (await answer(api.GET('/api/v2/varsets/{id}/versions', { params: { path: { id: setId }, query } }))).data;
}

/** Rolls the set back to `versionId` (a dry run answers what it would change and writes nothing). */
export function rollback(
  setId: string,
  versionId: string,
  options: { dryRun: boolean; skipMissing: boolean; ifNewest?: string | undefined },
) {
  const query = {
    'dry-run': options.dryRun ? ('true' as const) : undefined,
    'skip-missing': options.skipMissing ? ('true' as const) : undefined,
    'if-newest-version': options.ifNewest,
  };
  return answer(
    api.POST('/api/v2/varsets/{id}/actions/rollback', {
      params: { path: { id: setId }, query },
      body: { data: { type: 'varset-versions', id: versionId } },
    }),
  );
}
