import type { Selectable } from 'kysely';
import type { TeamTable } from '../db/schema.js';

/** A team of an organization. */
export type Team = Selectable<TeamTable>;
