import { randomAlphanumeric } from '../../../src/common/ids.js';
import { expectStatus, type Client } from '../requests.js';

/** Teams, tokens and grants for permission tests, made through the API with the site-admin token. */

export async function createTeam(
  t: Client,
  organization: string,
  attributes: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.post(`/api/v2/organizations/${organization}/teams`, {
    data: { type: 'teams', attributes: { name: `team-${randomAlphanumeric(8)}`, ...attributes } },
  });
  expectStatus(res, 200);
  return res.body.data.id;
}

export async function ownersTeam(t: Client, organization: string): Promise<string> {
  const res = await t.get(`/api/v2/organizations/${organization}/teams?filter%5Bnames%5D=owners`);
  expectStatus(res, 200);
  return res.body.data[0].id;
}

/** A new token for the team (replacing its previous one); returns the secret. */
export async function teamToken(t: Client, teamId: string, attributes: Record<string, unknown> = {}): Promise<string> {
  const res = await t.post(`/api/v2/teams/${teamId}/authentication-token`, {
    data: { type: 'authentication-tokens', attributes },
  });
  expectStatus(res, 201);
  return res.body.data.attributes.token;
}

export async function organizationToken(t: Client, organization: string): Promise<string> {
  const res = await t.post(`/api/v2/organizations/${organization}/authentication-token`, {
    data: { type: 'authentication-tokens' },
  });
  expectStatus(res, 201);
  return res.body.data.attributes.token;
}

export async function grantWorkspace(
  t: Client,
  teamId: string,
  workspaceId: string,
  attributes: Record<string, unknown>,
): Promise<string> {
  const res = await t.post('/api/v2/team-workspaces', {
    data: {
      type: 'team-workspaces',
      attributes,
      relationships: {
        team: { data: { type: 'teams', id: teamId } },
        workspace: { data: { type: 'workspaces', id: workspaceId } },
      },
    },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

export async function grantProject(
  t: Client,
  teamId: string,
  projectId: string,
  attributes: Record<string, unknown>,
): Promise<string> {
  const res = await t.post('/api/v2/team-projects', {
    data: {
      type: 'team-projects',
      attributes,
      relationships: {
        team: { data: { type: 'teams', id: teamId } },
        project: { data: { type: 'projects', id: projectId } },
      },
    },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

/** A team with the given organization access and a token for it. */
export async function teamWithToken(
  t: Client,
  organization: string,
  attributes: Record<string, unknown> = {},
): Promise<{ teamId: string; token: string }> {
  const teamId = await createTeam(t, organization, attributes);
  return { teamId, token: await teamToken(t, teamId) };
}
