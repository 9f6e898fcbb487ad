import { useQuery, type QueryClient } from '@tanstack/react-query';
import { answer, answerWithRequestId, api } from './client';
import { varsetChanged, workspaceVariablesChanged } from './invalidate';
import { queryKeys } from './queryKeys';
import type { Body } from './types';

/** Whose variables: a set's or a workspace's. */
export type VariableOwner = { kind: 'varsets' | 'workspaces'; id: string };

/** The owner's variables; a set's a page at a time (`page`), a workspace's all at once. */
export function useVariables(owner: VariableOwner, page: number | undefined) {
  const { id } = owner;
  const query = page === undefined ? {} : { 'page[number]': String(page), 'page[size]': '50' };
  return useQuery({
    queryKey:
      owner.kind === 'varsets'
        ? queryKeys.varsets.variables(id, page === undefined ? undefined : { number: page })
        : queryKeys.workspaces.variables(id),
    queryFn: async () =>
      owner.kind === 'varsets'
        ? answer(api.GET('/api/v2/varsets/{id}/relationships/vars', { params: { path: { id }, query } }))
        : answer(api.GET('/api/v2/workspaces/{id}/vars', { params: { path: { id } } })),
  });
}

export type VariableBody = Body<'/api/v2/varsets/{id}/relationships/vars', 'post'> &
  Body<'/api/v2/workspaces/{id}/vars', 'post'>;

/** Adds a variable, or changes the one `variableId` names; a set's answers the write's request id. */
export async function saveVariable(
  owner: VariableOwner,
  variableId: string | undefined,
  body: VariableBody,
): Promise<string | null> {
  const { id } = owner;
  if (owner.kind === 'varsets') {
    const written = variableId
      ? api.PATCH('/api/v2/varsets/{id}/relationships/vars/{varId}', {
          params: { path: { id, varId: variableId } },
          body,
        })
      : api.POST('/api/v2/varsets/{id}/relationships/vars', { params: { path: { id } }, body });
    return (await answerWithRequestId(written)).requestId;
  }
  if (variableId)
    await answer(
      api.PATCH('/api/v2/workspaces/{id}/vars/{varId}', { params: { path: { id, varId: variableId } }, body }),
    );
  else await answer(api.POST('/api/v2/workspaces/{id}/vars', { params: { path: { id } }, body }));
  return null;
}

/** Deletes a variable; a set's answers the write's request id. */
export async function deleteVariable(owner: VariableOwner, variableId: string): Promise<string | null> {
  const path = { id: owner.id, varId: variableId };
  if (owner.kind === 'varsets')
    return (
      await answerWithRequestId(api.DELETE('/api/v2/varsets/{id}/relationships/vars/{varId}', { params: { path } }))
    ).requestId;
  await answer(api.DELETE('/api/v2/workspaces/{id}/vars/{varId}', { params: { path } }));
  return null;
}

/** After a write to the owner's variables. */
export const variablesChanged = (client: QueryClient, owner: VariableOwner): Promise<void> =>
  owner.kind === 'varsets' ? varsetChanged(client, owner.id) : workspaceVariablesChanged(client, owner.id);
