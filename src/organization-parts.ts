import type { OrganizationPart } from './organizations/service.js';
import { createDefaultProject, followOrganizationSettings } from './projects/service.js';
import { createOwnersTeam } from './teams/service.js';
import { deleteOrganizationWorkspaces } from './workspaces/service.js';

/**
 * What every organization has of other features, each written by its own feature in the
 * organization's transactions (the organizations feature knows none of them): its default
 * project and owners team, the projects that follow its execution mode, and its workspaces,
 * which go before it since the projects the cascade removes are referenced by them.
 */
export const ORGANIZATION_PARTS: readonly OrganizationPart[] = [
  { created: createDefaultProject, updated: followOrganizationSettings },
  { created: createOwnersTeam },
  { deleting: deleteOrganizationWorkspaces },
];
