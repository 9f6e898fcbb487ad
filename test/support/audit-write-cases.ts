import { randomAlphanumeric } from '../../src/common/ids.js';
import type { TestApp } from './app.js';
import { createTeam, grantProject, grantWorkspace } from './factories/access.js';
import { organizationId } from './factories/audit.js';
import {
  configArchive,
  createConfigurationVersion,
  createRun,
  createUploadedConfigurationVersion,
  upload,
} from './factories/runs.js';
import { expectStatus, type ApiResponse } from './requests.js';

/**
 * One case per write route of the API: what to prepare, the write itself, and the event it
 * must leave in the audit trail. audit-trail.test.ts fails when a write route has no case here.
 */

export interface Scene {
  t: TestApp;
  /** A fresh organization's name, and its id as events name it. */
  org: string;
  orgId: string;
}

export interface Write {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  body?: unknown;
  /** Sends the write some other way than with the site-admin token (the upload URL). */
  send?: () => Promise<ApiResponse>;
  /** The event the write must leave: resource type, id and action (the id may come from the response). */
  event: (res: ApiResponse) => ExpectedEvent | Promise<ExpectedEvent>;
  /** Who the event names, when not the site administrator. */
  accessor?: { id: string; description: string };
}

export type WriteCase = (scene: Scene) => Promise<Write>;

export interface ExpectedEvent {
  type: string;
  id: string;
  action: string;
  /** The organization whose trail shows it, when not the scene's. */
  organizationId?: string;
}

const name = (prefix: string) => `${prefix}-${randomAlphanumeric(8)}`;
const event = (type: string, id: string, action: string) => () => ({ type, id, action });
const created = (type: string) => (res: ApiResponse) => ({ type, id: res.body.data.id, action: 'create' });
const ref = (type: string, id: string) => ({ type, id });

async function varset(t: TestApp, org: string): Promise<string> {
  const res = await t.post(`/api/v2/organizations/${org}/varsets`, {
    data: { type: 'varsets', attributes: { name: name('set'), global: false } },
  });
  expectStatus(res, 200);
  return res.body.data.id;
}

/** A configuration whose host name resolves nowhere (`.invalid`): a verification fails at once, and is recorded. */
const notificationBody = () => ({
  data: {
    type: 'varset-notification-configurations',
    attributes: {
      name: name('hook'),
      'destination-type': 'generic',
      url: 'https://hooks.example.invalid/varsets',
      enabled: true,
      triggers: ['varset:changed'],
    },
  },
});

async function notificationConfiguration(t: TestApp, org: string): Promise<string> {
  const res = await t.post(`/api/v2/organizations/${org}/varset-notification-configurations`, notificationBody());
  expectStatus(res, 201);
  return res.body.data.id;
}

async function varsetVariable(t: TestApp, setId: string): Promise<string> {
  const res = await t.post(`/api/v2/varsets/${setId}/relationships/vars`, {
    data: { type: 'vars', attributes: { key: name('key'), value: 'v', category: 'terraform' } },
  });
  expectStatus(res, 200);
  return res.body.data.id;
}

async function workspaceVariable(t: TestApp, workspaceId: string): Promise<string> {
  const res = await t.post(`/api/v2/workspaces/${workspaceId}/vars`, {
    data: { type: 'vars', attributes: { key: name('key'), value: 'v', category: 'env' } },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

async function describedToken(t: TestApp, teamId: string): Promise<string> {
  const res = await t.post(`/api/v2/teams/${teamId}/authentication-tokens`, {
    data: { type: 'authentication-tokens', attributes: { description: name('ci') } },
  });
  expectStatus(res, 201);
  return res.body.data.id;
}

async function lock(t: TestApp, workspaceId: string): Promise<void> {
  expectStatus(await t.post(`/api/v2/workspaces/${workspaceId}/actions/lock`, { reason: 'test' }), 200);
}

const wsBody = (attributes: Record<string, unknown>) => ({ data: { type: 'workspaces', attributes } });
const teamAccessBody = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

export const WRITE_CASES: Record<string, WriteCase> = {
  // Organizations
  'POST /api/v2/organizations': async ({ t }) => {
    const org = name('org');
    return {
      method: 'POST',
      url: '/api/v2/organizations',
      body: { data: { type: 'organizations', attributes: { name: org, email: `${org}@example.com` } } },
      event: async () => {
        const id = await organizationId(t, org);
        return { type: 'organization', id, action: 'create', organizationId: id };
      },
    };
  },
  'PATCH /api/v2/organizations/{name}': async ({ org, orgId }) => ({
    method: 'PATCH',
    url: `/api/v2/organizations/${org}`,
    body: { data: { type: 'organizations', attributes: { email: 'new@example.com' } } },
    event: event('organization', orgId, 'update'),
  }),
  'PUT /api/v2/organizations/{name}': async ({ org, orgId }) => ({
    method: 'PUT',
    url: `/api/v2/organizations/${org}`,
    body: { data: { type: 'organizations', attributes: { email: 'new@example.com' } } },
    event: event('organization', orgId, 'update'),
  }),
  'DELETE /api/v2/organizations/{name}': async ({ org, orgId }) => ({
    method: 'DELETE',
    url: `/api/v2/organizations/${org}`,
    event: event('organization', orgId, 'destroy'),
  }),

  // Projects
  'POST /api/v2/organizations/{organization}/projects': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/projects`,
    body: { data: { type: 'projects', attributes: { name: name('prj') } } },
    event: created('project'),
  }),
  'PATCH /api/v2/projects/{id}': async ({ t, org }) => {
    const id = await t.createProject(org);
    return {
      method: 'PATCH',
      url: `/api/v2/projects/${id}`,
      body: { data: { type: 'projects', attributes: { description: 'd' } } },
      event: event('project', id, 'update'),
    };
  },
  'DELETE /api/v2/projects/{id}': async ({ t, org }) => {
    const id = await t.createProject(org);
    return { method: 'DELETE', url: `/api/v2/projects/${id}`, event: event('project', id, 'destroy') };
  },
  'PATCH /api/v2/projects/{id}/tag-bindings': async ({ t, org }) => {
    const id = await t.createProject(org);
    const body = { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'prod' } }] };
    return {
      method: 'PATCH',
      url: `/api/v2/projects/${id}/tag-bindings`,
      body,
      event: event('project', id, 'add_tag_bindings'),
    };
  },

  // Workspaces
  'POST /api/v2/organizations/{organization}/workspaces': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/workspaces`,
    body: wsBody({ name: name('ws') }),
    event: created('workspace'),
  }),
  'PATCH /api/v2/organizations/{organization}/workspaces/{name}': async ({ t, org }) => {
    const ws = name('ws');
    const id = await t.createWorkspace(org, { name: ws });
    return {
      method: 'PATCH',
      url: `/api/v2/organizations/${org}/workspaces/${ws}`,
      body: wsBody({ description: 'd' }),
      event: event('workspace', id, 'update'),
    };
  },
  'DELETE /api/v2/organizations/{organization}/workspaces/{name}': async ({ t, org }) => {
    const ws = name('ws');
    const id = await t.createWorkspace(org, { name: ws });
    return {
      method: 'DELETE',
      url: `/api/v2/organizations/${org}/workspaces/${ws}`,
      event: event('workspace', id, 'destroy'),
    };
  },
  'PATCH /api/v2/workspaces/{id}': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    return {
      method: 'PATCH',
      url: `/api/v2/workspaces/${id}`,
      body: wsBody({ description: 'd' }),
      event: event('workspace', id, 'update'),
    };
  },
  'DELETE /api/v2/workspaces/{id}': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    return { method: 'DELETE', url: `/api/v2/workspaces/${id}`, event: event('workspace', id, 'destroy') };
  },
  'POST /api/v2/workspaces/{id}/actions/lock': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    return {
      method: 'POST',
      url: `/api/v2/workspaces/${id}/actions/lock`,
      body: { reason: 'deploying' },
      event: event('workspace', id, 'lock'),
    };
  },
  'POST /api/v2/workspaces/{id}/actions/unlock': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    await lock(t, id);
    return { method: 'POST', url: `/api/v2/workspaces/${id}/actions/unlock`, event: event('workspace', id, 'unlock') };
  },
  'POST /api/v2/workspaces/{id}/actions/force-unlock': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    await lock(t, id);
    return {
      method: 'POST',
      url: `/api/v2/workspaces/${id}/actions/force-unlock`,
      event: event('workspace', id, 'force_unlock'),
    };
  },
  'POST /api/v2/workspaces/{id}/actions/safe-delete': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    return {
      method: 'POST',
      url: `/api/v2/workspaces/${id}/actions/safe-delete`,
      event: event('workspace', id, 'safe_delete'),
    };
  },
  'POST /api/v2/organizations/{organization}/workspaces/{name}/actions/safe-delete': async ({ t, org }) => {
    const ws = name('ws');
    const id = await t.createWorkspace(org, { name: ws });
    return {
      method: 'POST',
      url: `/api/v2/organizations/${org}/workspaces/${ws}/actions/safe-delete`,
      event: event('workspace', id, 'safe_delete'),
    };
  },
  'POST /api/v2/workspaces/{id}/relationships/tags': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    return {
      method: 'POST',
      url: `/api/v2/workspaces/${id}/relationships/tags`,
      body: { data: [{ type: 'tags', attributes: { name: 'prod' } }] },
      event: event('workspace', id, 'add_tags'),
    };
  },
  'DELETE /api/v2/workspaces/{id}/relationships/tags': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    const body = { data: [{ type: 'tags', attributes: { name: 'prod' } }] };
    expectStatus(await t.post(`/api/v2/workspaces/${id}/relationships/tags`, body), 204);
    return {
      method: 'DELETE',
      url: `/api/v2/workspaces/${id}/relationships/tags`,
      body,
      event: event('workspace', id, 'remove_tags'),
    };
  },
  'PATCH /api/v2/workspaces/{id}/tag-bindings': async ({ t, org }) => {
    const id = await t.createWorkspace(org);
    const body = { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'prod' } }] };
    return {
      method: 'PATCH',
      url: `/api/v2/workspaces/${id}/tag-bindings`,
      body,
      event: event('workspace', id, 'add_tag_bindings'),
    };
  },
  ...Object.fromEntries(
    (['POST', 'DELETE', 'PATCH'] as const).map((method) => [
      `${method} /api/v2/workspaces/{id}/relationships/remote-state-consumers`,
      (async ({ t, org }) => {
        const [id, consumer] = [await t.createWorkspace(org), await t.createWorkspace(org)];
        const url = `/api/v2/workspaces/${id}/relationships/remote-state-consumers`;
        const body = { data: [ref('workspaces', consumer)] };
        if (method === 'DELETE') expectStatus(await t.post(url, body), 204);
        const action = { POST: 'add', DELETE: 'remove', PATCH: 'replace' }[method];
        return { method, url, body, event: event('workspace', id, `${action}_remote_state_consumers`) };
      }) satisfies WriteCase,
    ]),
  ),

  // Teams and tokens
  'POST /api/v2/organizations/{organization}/teams': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/teams`,
    body: { data: { type: 'teams', attributes: { name: name('team') } } },
    event: created('team'),
  }),
  'PATCH /api/v2/teams/{id}': async ({ t, org }) => {
    const id = await createTeam(t, org);
    return {
      method: 'PATCH',
      url: `/api/v2/teams/${id}`,
      body: { data: { type: 'teams', attributes: { visibility: 'organization' } } },
      event: event('team', id, 'update'),
    };
  },
  'DELETE /api/v2/teams/{id}': async ({ t, org }) => {
    const id = await createTeam(t, org);
    return { method: 'DELETE', url: `/api/v2/teams/${id}`, event: event('team', id, 'destroy') };
  },
  'POST /api/v2/teams/{id}/authentication-token': async ({ t, org }) => {
    const team = await createTeam(t, org);
    return {
      method: 'POST',
      url: `/api/v2/teams/${team}/authentication-token`,
      body: { data: { type: 'authentication-tokens' } },
      event: created('authentication_token'),
    };
  },
  'DELETE /api/v2/teams/{id}/authentication-token': async ({ t, org }) => {
    const team = await createTeam(t, org);
    const res = await t.post(`/api/v2/teams/${team}/authentication-token`, { data: { type: 'authentication-tokens' } });
    expectStatus(res, 201);
    return {
      method: 'DELETE',
      url: `/api/v2/teams/${team}/authentication-token`,
      event: event('authentication_token', res.body.data.id, 'destroy'),
    };
  },
  'POST /api/v2/teams/{id}/authentication-tokens': async ({ t, org }) => {
    const team = await createTeam(t, org);
    const body = { data: { type: 'authentication-tokens', attributes: { description: 'CI' } } };
    return {
      method: 'POST',
      url: `/api/v2/teams/${team}/authentication-tokens`,
      body,
      event: created('authentication_token'),
    };
  },
  'DELETE /api/v2/authentication-tokens/{id}': async ({ t, org }) => {
    const id = await describedToken(t, await createTeam(t, org));
    return {
      method: 'DELETE',
      url: `/api/v2/authentication-tokens/${id}`,
      event: event('authentication_token', id, 'destroy'),
    };
  },
  'POST /api/v2/organizations/{organization}/authentication-token': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/authentication-token`,
    body: { data: { type: 'authentication-tokens' } },
    event: created('authentication_token'),
  }),
  'DELETE /api/v2/organizations/{organization}/authentication-token': async ({ t, org }) => {
    const res = await t.post(`/api/v2/organizations/${org}/authentication-token`, {
      data: { type: 'authentication-tokens' },
    });
    expectStatus(res, 201);
    return {
      method: 'DELETE',
      url: `/api/v2/organizations/${org}/authentication-token`,
      event: event('authentication_token', res.body.data.id, 'destroy'),
    };
  },

  // Team access
  'POST /api/v2/team-workspaces': async ({ t, org }) => {
    const [team, ws] = [await createTeam(t, org), await t.createWorkspace(org)];
    const body = {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'read' },
        relationships: { team: { data: ref('teams', team) }, workspace: { data: ref('workspaces', ws) } },
      },
    };
    return { method: 'POST', url: '/api/v2/team-workspaces', body, event: event('workspace', ws, 'add_team') };
  },
  'PATCH /api/v2/team-workspaces/{id}': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const id = await grantWorkspace(t, await createTeam(t, org), ws, { access: 'read' });
    return {
      method: 'PATCH',
      url: `/api/v2/team-workspaces/${id}`,
      body: teamAccessBody('team-workspaces', { access: 'write' }),
      event: event('workspace', ws, 'update_team_permissions'),
    };
  },
  'DELETE /api/v2/team-workspaces/{id}': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const id = await grantWorkspace(t, await createTeam(t, org), ws, { access: 'read' });
    return { method: 'DELETE', url: `/api/v2/team-workspaces/${id}`, event: event('workspace', ws, 'remove_team') };
  },
  'POST /api/v2/team-projects': async ({ t, org }) => {
    const [team, project] = [await createTeam(t, org), await t.createProject(org)];
    const body = {
      data: {
        type: 'team-projects',
        attributes: { access: 'read' },
        relationships: { team: { data: ref('teams', team) }, project: { data: ref('projects', project) } },
      },
    };
    return { method: 'POST', url: '/api/v2/team-projects', body, event: event('project', project, 'add_team') };
  },
  'PATCH /api/v2/team-projects/{id}': async ({ t, org }) => {
    const project = await t.createProject(org);
    const id = await grantProject(t, await createTeam(t, org), project, { access: 'read' });
    return {
      method: 'PATCH',
      url: `/api/v2/team-projects/${id}`,
      body: teamAccessBody('team-projects', { access: 'write' }),
      event: event('project', project, 'update_team_permissions'),
    };
  },
  'DELETE /api/v2/team-projects/{id}': async ({ t, org }) => {
    const project = await t.createProject(org);
    const id = await grantProject(t, await createTeam(t, org), project, { access: 'read' });
    return { method: 'DELETE', url: `/api/v2/team-projects/${id}`, event: event('project', project, 'remove_team') };
  },

  // Variable sets and their variables
  'POST /api/v2/organizations/{organization}/varsets': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/varsets`,
    body: { data: { type: 'varsets', attributes: { name: name('set'), global: false } } },
    event: created('varset'),
  }),
  ...Object.fromEntries(
    (['PATCH', 'PUT', 'POST'] as const).map((method) => [
      `${method} /api/v2/varsets/{id}`,
      (async ({ t, org }) => {
        const id = await varset(t, org);
        return {
          method,
          url: `/api/v2/varsets/${id}`,
          body: { data: { type: 'varsets', attributes: { description: 'd' } } },
          event: event('varset', id, 'update'),
        };
      }) satisfies WriteCase,
    ]),
  ),
  'POST /api/v2/varsets/{id}/actions/rollback': async ({ t, org }) => {
    const id = await varset(t, org);
    expectStatus(
      await t.patch(`/api/v2/varsets/${id}`, { data: { type: 'varsets', attributes: { description: 'changed' } } }),
      200,
    );
    const first = (await t.get(`/api/v2/varsets/${id}/versions`)).body.data.at(-1).id;
    return {
      method: 'POST',
      url: `/api/v2/varsets/${id}/actions/rollback`,
      body: { data: { type: 'varset-versions', id: first } },
      event: event('varset', id, 'rollback'),
    };
  },
  'POST /api/v2/varsets/{id}/actions/write-variables': async ({ t, org }) => {
    const id = await varset(t, org);
    return {
      method: 'POST',
      url: `/api/v2/varsets/${id}/actions/write-variables`,
      body: { data: [{ type: 'vars', attributes: { key: name('written'), value: 'v', category: 'env' } }] },
      event: event('varset', id, 'update'),
    };
  },
  'POST /api/v2/organizations/{organization}/varset-imports': async ({ t, org }) => {
    // An export of one set, with no workspace or project, from another organization: the import creates that set alone.
    const source = await t.createOrganization();
    const setName = name('imported');
    const made = await t.post(`/api/v2/organizations/${source}/varsets`, {
      data: { type: 'varsets', attributes: { name: setName, global: false } },
    });
    expectStatus(made, 200);
    const exported = await t.get(`/api/v2/organizations/${source}/varset-export`);
    expectStatus(exported, 200);
    return {
      method: 'POST',
      url: `/api/v2/organizations/${org}/varset-imports`,
      body: { data: { type: 'varset-imports', attributes: { documents: exported.body, 'file-name': 'sets.json' } } },
      event: async () => {
        const found = await t.get(`/api/v2/organizations/${org}/varsets?q=${setName}`);
        return { type: 'varset', id: found.body.data[0].id, action: 'create' };
      },
    };
  },
  'POST /api/v2/organizations/{organization}/varset-notification-configurations': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/varset-notification-configurations`,
    body: notificationBody(),
    event: created('notification_configuration'),
  }),
  'PATCH /api/v2/varset-notification-configurations/{id}': async ({ t, org }) => {
    const id = await notificationConfiguration(t, org);
    return {
      method: 'PATCH',
      url: `/api/v2/varset-notification-configurations/${id}`,
      body: { data: { type: 'varset-notification-configurations', attributes: { enabled: false } } },
      event: event('notification_configuration', id, 'update'),
    };
  },
  'DELETE /api/v2/varset-notification-configurations/{id}': async ({ t, org }) => {
    const id = await notificationConfiguration(t, org);
    return {
      method: 'DELETE',
      url: `/api/v2/varset-notification-configurations/${id}`,
      event: event('notification_configuration', id, 'destroy'),
    };
  },
  'POST /api/v2/varset-notification-configurations/{id}/actions/verify': async ({ t, org }) => {
    const id = await notificationConfiguration(t, org);
    return {
      method: 'POST',
      url: `/api/v2/varset-notification-configurations/${id}/actions/verify`,
      event: event('notification_configuration', id, 'verify'),
    };
  },
  'DELETE /api/v2/varsets/{id}': async ({ t, org }) => {
    const id = await varset(t, org);
    return { method: 'DELETE', url: `/api/v2/varsets/${id}`, event: event('varset', id, 'destroy') };
  },
  ...Object.fromEntries(
    (['workspaces', 'projects'] as const).flatMap((kind) =>
      (['POST', 'DELETE'] as const).map((method) => [
        `${method} /api/v2/varsets/{id}/relationships/${kind}`,
        (async ({ t, org }) => {
          const id = await varset(t, org);
          const target = kind === 'workspaces' ? await t.createWorkspace(org) : await t.createProject(org);
          const url = `/api/v2/varsets/${id}/relationships/${kind}`;
          const body = { data: [ref(kind, target)] };
          if (method === 'DELETE') expectStatus(await t.post(url, body), 204);
          return { method, url, body, event: event('varset', id, method === 'POST' ? 'apply' : 'remove') };
        }) satisfies WriteCase,
      ]),
    ),
  ),
  'POST /api/v2/varsets/{id}/relationships/vars': async ({ t, org }) => {
    const id = await varset(t, org);
    const body = { data: { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } } };
    return { method: 'POST', url: `/api/v2/varsets/${id}/relationships/vars`, body, event: created('var') };
  },
  'PATCH /api/v2/varsets/{id}/relationships/vars/{varId}': async ({ t, org }) => {
    const id = await varset(t, org);
    const variable = await varsetVariable(t, id);
    const body = { data: { type: 'vars', attributes: { value: 'changed' } } };
    return {
      method: 'PATCH',
      url: `/api/v2/varsets/${id}/relationships/vars/${variable}`,
      body,
      event: event('var', variable, 'update'),
    };
  },
  'DELETE /api/v2/varsets/{id}/relationships/vars/{varId}': async ({ t, org }) => {
    const id = await varset(t, org);
    const variable = await varsetVariable(t, id);
    return {
      method: 'DELETE',
      url: `/api/v2/varsets/${id}/relationships/vars/${variable}`,
      event: event('var', variable, 'destroy'),
    };
  },

  // Workspace variables
  'POST /api/v2/workspaces/{id}/vars': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const body = { data: { type: 'vars', attributes: { key: 'TF_LOG', value: 'info', category: 'env' } } };
    return { method: 'POST', url: `/api/v2/workspaces/${ws}/vars`, body, event: created('var') };
  },
  'PATCH /api/v2/workspaces/{id}/vars/{varId}': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const variable = await workspaceVariable(t, ws);
    return {
      method: 'PATCH',
      url: `/api/v2/workspaces/${ws}/vars/${variable}`,
      body: { data: { type: 'vars', attributes: { value: 'x' } } },
      event: event('var', variable, 'update'),
    };
  },
  'DELETE /api/v2/workspaces/{id}/vars/{varId}': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const variable = await workspaceVariable(t, ws);
    return {
      method: 'DELETE',
      url: `/api/v2/workspaces/${ws}/vars/${variable}`,
      event: event('var', variable, 'destroy'),
    };
  },

  // Configuration versions, runs and comments
  'POST /api/v2/workspaces/{id}/configuration-versions': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    return {
      method: 'POST',
      url: `/api/v2/workspaces/${ws}/configuration-versions`,
      body: { data: { type: 'configuration-versions', attributes: {} } },
      event: created('configuration_version'),
    };
  },
  'PUT /api/v2/uploads/{secret}': async ({ t, org }) => {
    const cv = await createConfigurationVersion(t, await t.createWorkspace(org));
    const url = cv.attributes['upload-url'];
    return {
      method: 'PUT',
      url,
      send: () => upload(t, url, configArchive()),
      event: event('configuration_version', cv.id, 'upload'),
      accessor: { id: cv.id, description: `upload URL of configuration version ${cv.id}` },
    };
  },
  'POST /api/v2/configuration-versions/{id}/actions/archive': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const older = await createUploadedConfigurationVersion(t, ws);
    await createUploadedConfigurationVersion(t, ws);
    return {
      method: 'POST',
      url: `/api/v2/configuration-versions/${older}/actions/archive`,
      event: event('configuration_version', older, 'archive'),
    };
  },
  'POST /api/v2/runs': async ({ t, org }) => {
    const ws = await t.createWorkspace(org);
    const cv = await createUploadedConfigurationVersion(t, ws);
    const relationships = {
      workspace: { data: ref('workspaces', ws) },
      'configuration-version': { data: ref('configuration-versions', cv) },
    };
    return {
      method: 'POST',
      url: '/api/v2/runs',
      body: { data: { type: 'runs', attributes: {}, relationships } },
      event: created('run'),
    };
  },
  'POST /api/v2/runs/{id}/actions/start': async ({ t, org }) => {
    const run = await createRun(t, await t.createWorkspace(org));
    return { method: 'POST', url: `/api/v2/runs/${run.id}/actions/start`, event: event('run', run.id, 'start') };
  },
  'POST /api/v2/runs/{id}/actions/finish': async ({ t, org }) => {
    const run = await createRun(t, await t.createWorkspace(org));
    return {
      method: 'POST',
      url: `/api/v2/runs/${run.id}/actions/finish`,
      body: { 'exit-code': 0 },
      event: event('run', run.id, 'finish'),
    };
  },
  'POST /api/v2/runs/{id}/comments': async ({ t, org }) => {
    const run = await createRun(t, await t.createWorkspace(org));
    const body = { data: { type: 'comments', attributes: { body: 'looks good' } } };
    return { method: 'POST', url: `/api/v2/runs/${run.id}/comments`, body, event: created('workspace_comment') };
  },
};

/**
 * Routes that take a POST but change nothing (a write's preview, which runs the write and takes
 * it back): each must leave no event.
 */
export const NON_WRITE_CASES: Record<string, (scene: Scene) => Promise<Omit<Write, 'event'>>> = {
  'POST /api/v2/varsets/{id}/actions/preview': async ({ t, org }) => {
    const id = await varset(t, org);
    return {
      method: 'POST',
      url: `/api/v2/varsets/${id}/actions/preview`,
      body: { data: { type: 'vars', attributes: { key: name('previewed'), value: 'v', category: 'terraform' } } },
    };
  },
  'POST /api/v2/organizations/{organization}/varsets/actions/preview': async ({ org }) => ({
    method: 'POST',
    url: `/api/v2/organizations/${org}/varsets/actions/preview`,
    body: { data: { type: 'varsets', attributes: { name: name('previewed-set'), global: true } } },
  }),
};
