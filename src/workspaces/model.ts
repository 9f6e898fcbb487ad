import type { Selectable } from 'kysely';
import type { WorkspaceTable } from '../db/schema.js';

/** A workspace of an organization, in one of its projects. */
export type Workspace = Omit<Selectable<WorkspaceTable>, 'search_name'>;
