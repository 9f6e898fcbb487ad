import type { Selectable } from 'kysely';
import type { ProjectTable } from '../db/schema.js';

/** A project of an organization. */
export type Project = Omit<Selectable<ProjectTable>, 'search_name'>;
