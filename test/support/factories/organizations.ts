import { randomAlphanumeric } from '../../../src/common/ids.js';
import { expectStatus, type Client } from '../requests.js';

/** Organizations, projects and workspaces, made through the API; each returns the new resource's id (an organization's is its name). */

export async function createOrganization(c: Client, name = `org-${randomAlphanumeric(8)}`): Promise<string> {
  const res = await c.post('/api/v2/organizations', {
    data: { type: 'organizations', attributes: { name, email: `${name}@example.com` } },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

export async function createProject(
  c: Client,
  organization: string,
  name = `prj-${randomAlphanumeric(8)}`,
): Promise<string> {
  const res = await c.post(`/api/v2/organizations/${organization}/projects`, {
    data: { type: 'projects', attributes: { name } },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

export async function createWorkspace(
  c: Client,
  organization: string,
  options: { name?: string; projectId?: string } = {},
): Promise<string> {
  const res = await c.post(`/api/v2/organizations/${organization}/workspaces`, {
    data: {
      type: 'workspaces',
      attributes: { name: options.name ?? `ws-${randomAlphanumeric(8)}` },
      ...(options.projectId
        ? { relationships: { project: { data: { type: 'projects', id: options.projectId } } } }
        : {}),
    },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}
