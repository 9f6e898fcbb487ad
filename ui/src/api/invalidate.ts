import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from './queryKeys';

/** What each write changes, to read again: nothing else is invalidated. */

/**
 * A set was made, changed, restored or deleted, or its variables were: its own reads (detail,
 * variables, versions), the lists of sets showing its name and counts, and the effective
 * variables of workspaces, which it may reach.
 */
export async function varsetChanged(client: QueryClient, id: string | null): Promise<void> {
  await Promise.all([
    id === null ? undefined : client.invalidateQueries({ queryKey: queryKeys.varsets.of(id) }),
    client.invalidateQueries({ queryKey: queryKeys.varsetLists.all }),
    client.invalidateQueries({ queryKey: queryKeys.effectiveVariables.ofWorkspaces }),
  ]);
}

/** A workspace's own variables changed: their list and the workspace's effective variables. */
export async function workspaceVariablesChanged(client: QueryClient, id: string): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.workspaces.variables(id) }),
    client.invalidateQueries({ queryKey: queryKeys.effectiveVariables.of('workspaces', id) }),
  ]);
}
