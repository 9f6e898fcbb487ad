import type { Selectable } from 'kysely';
import type { OrganizationTable } from '../db/schema.js';

/** An organization. Its API id is its name; `id` is the internal one. */
export type Organization = Selectable<OrganizationTable>;
