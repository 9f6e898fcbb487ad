import { createOrganization, createProject, createWorkspace } from './factories/organizations.js';
import { createVarset } from './factories/varsets.js';
import type { Client } from './requests.js';

/** The sensitive value the fixture holds: it must appear in no export, report or log. */
export const SECRET = 'fixture-secret-4f9c2a7d81';

/**
 * An organization with sets of every kind, made through the API: a global set, a priority
 * set owned by a project and applied to it, a set applied to workspaces, one whose name a
 * file name cannot hold as it is, sensitive and HCL variables, and a workspace variable.
 */
export async function seedOrganization(c: Client, organization: string) {
  await createOrganization(c, organization);
  const infra = await createProject(c, organization, 'infra');
  const apps = await createProject(c, organization, 'apps');
  const web = await createWorkspace(c, organization, { name: 'web', projectId: apps });
  const db = await createWorkspace(c, organization, { name: 'db', projectId: infra });
  const batch = await createWorkspace(c, organization, { name: 'batch' });
  await createVarset(c, organization, {
    attributes: { name: 'shared', description: 'everywhere', global: true },
    vars: [
      { key: 'region', value: 'eu-west-1' },
      { key: 'AWS_SECRET_ACCESS_KEY', value: SECRET, category: 'env', sensitive: true, description: 'the key' },
    ],
  });
  await createVarset(c, organization, {
    attributes: { name: 'infra overrides', priority: true },
    parent: { type: 'projects', id: infra },
    projects: [infra],
    vars: [{ key: 'tags', value: '{ team = "infra" }', hcl: true }],
  });
  await createVarset(c, organization, {
    attributes: { name: 'apps/web: "tuning"' },
    workspaces: [web, batch],
    vars: [
      { key: 'replicas', value: '3' },
      { key: 'region', value: 'us-east-1' },
    ],
  });
  await c.post(`/api/v2/workspaces/${db}/vars`, {
    data: { type: 'vars', attributes: { key: 'size', value: 'large', category: 'terraform' } },
  });
  return { infra, apps, web, db, batch };
}
