import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.js';
import { openStore, type Store } from '../src/db/connect.js';
import { createTeam, grantWorkspace, teamToken } from './support/factories/access.js';
import { createOrganization } from './support/factories/organizations.js';
import { assign, createVar, createVarset } from './support/factories/varsets.js';
import { startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, injectClient, type Client } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';
import {
  raceAddSameKey,
  raceCreateGlobalSets,
  raceFlipGlobal,
  raceRenameIntoSameKey,
} from './support/varsets-races.js';
import type { FastifyInstance } from 'fastify';

/**
 * Two real varsetd processes on one store (one PostgreSQL database, or one SQLite file),
 * with concurrent HTTP requests spread over both: the organization lock must hold the
 * global rule across processes, not only within one.
 */

interface TwoServers {
  store: TestStore;
  clients: [Client, Client];
  stop(): Promise<void>;
}

/**
 * Two varsetd processes on one fresh store, and `stop` for them and the store. Should the test
 * process die before `stop` runs, the processes go with it.
 */
async function startTwoServers(): Promise<TwoServers> {
  const store = await createTestStore();
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await store.dispose();
  };
  try {
    const env = varsetdEnv(store, { VARSETD_ADMIN_TOKEN: ADMIN_TOKEN });
    // One after the other: the first creates the schema and the configured admin token.
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  } catch (error) {
    await stop();
    throw error;
  }
  return { store, clients: servers.map((server) => httpClient(server.url)) as [Client, Client], stop };
}

describe(`the global rule across two server processes (${storeKind})`, () => {
  let servers: TwoServers | undefined;
  let clients: Client[];

  before(async () => {
    servers = await startTwoServers();
    clients = servers.clients;
  });

  after(async () => {
    await servers?.stop();
  });

  it('both processes serve the same store', async () => {
    const org = await createOrganization(clients[0]!);
    const set = await createVarset(clients[0]!, org, { attributes: { global: true }, vars: [{ key: 'seen' }] });
    const shown = await clients[1]!.get(`/api/v2/varsets/${set.id}`);
    expectStatus(shown, 200);
    assert.equal(shown.body.data.attributes['var-count'], 1);
  });

  const N = 16;
  it('lets exactly one of many concurrent global set creations with the same variable win', async () => {
    await raceCreateGlobalSets(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many concurrent additions of one key to different global sets win', async () => {
    await raceAddSameKey(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many sets holding the same variable become global', async () => {
    await raceFlipGlobal(clients, await createOrganization(clients[0]!), N);
  });
  it('lets exactly one of many concurrent renames into the same key win', async () => {
    await raceRenameIntoSameKey(clients, await createOrganization(clients[0]!), N);
  });
});

/**
 * One process reads and keeps rendered responses, the other writes: after every kind of write
 * that changes what a set or a list of sets shows, the reader must answer exactly what a
 * varsetd without a response cache answers on the same store.
 */
describe(`cached responses across two server processes (${storeKind})`, () => {
  let servers: TwoServers | undefined;
  let reader: Client;
  let writer: Client;
  let uncachedStore: Store | undefined;
  let uncachedApp: FastifyInstance | undefined;
  let uncached: Client;

  before(async () => {
    servers = await startTwoServers();
    [reader, writer] = servers.clients;
    uncachedStore = await openStore(servers.store);
    uncachedApp = await buildApp({ store: uncachedStore, publicUrl: 'http://127.0.0.1:1', responseCacheSize: 0 });
    uncached = injectClient(uncachedApp);
  });

  after(async () => {
    await uncachedApp?.close();
    await uncachedStore?.close();
    await servers?.stop();
  });

  async function expectSameAsUncached(urls: string[], after: string, token?: string): Promise<void> {
    for (const url of urls) {
      const options = token === undefined ? undefined : { token };
      const [cached, truth] = await Promise.all([reader.get(url, options), uncached.get(url, options)]);
      assert.equal(cached.status, truth.status, `${url} after ${after}`);
      assert.deepEqual(cached.body, truth.body, `${url} after ${after}`);
    }
  }

  it('never serves a response that a write in the other process has changed', async () => {
    let org = await createOrganization(writer);
    const projectRes = await writer.post(`/api/v2/organizations/${org}/projects`, {
      data: { type: 'projects', attributes: { name: 'payments' } },
    });
    const projectId = projectRes.body.data.id as string;
    const otherProjectRes = await writer.post(`/api/v2/organizations/${org}/projects`, {
      data: { type: 'projects', attributes: { name: 'billing' } },
    });
    const otherProjectId = otherProjectRes.body.data.id as string;
    const workspace = async (name: string, project: string) =>
      (
        await writer.post(`/api/v2/organizations/${org}/workspaces`, {
          data: {
            type: 'workspaces',
            attributes: { name },
            relationships: { project: { data: { type: 'projects', id: project } } },
          },
        })
      ).body.data.id as string;
    const w1 = await workspace('api', projectId);
    const w2 = await workspace('worker', projectId);
    const shown = await createVarset(writer, org, {
      attributes: { name: 'shared', description: 'first' },
      vars: [{ key: 'region' }, { key: 'TOKEN', category: 'env' }],
    });
    const other = await createVarset(writer, org, { attributes: { name: 'other' }, vars: [{ key: 'size' }] });
    await createVarset(writer, org, { attributes: { name: 'everywhere', global: true }, vars: [{ key: 'owner' }] });
    await assign(writer, shown.id, 'workspaces', [w1]);
    await assign(writer, other.id, 'projects', [projectId]);

    const urls = () => [
      `/api/v2/varsets/${shown.id}?include=vars,workspaces,projects`,
      `/api/v2/varsets/${other.id}`,
      `/api/v2/workspaces/${w1}/varsets?include=vars`,
      `/api/v2/workspaces/${w1}/varsets?page%5Bsize%5D=1&page%5Bnumber%5D=2`,
      `/api/v2/projects/${projectId}/varsets?include=projects,workspaces`,
      `/api/v2/organizations/${org}/varsets`,
      `/api/v2/organizations/${org}/varsets?q=SH&include=workspaces`,
    ];
    await expectSameAsUncached(urls(), 'the first read');
    await expectSameAsUncached(urls(), 'a second read');

    const varsPath = `/api/v2/varsets/${shown.id}/relationships/vars`;
    let added = '';
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'renaming a set',
        () =>
          writer.patch(`/api/v2/varsets/${shown.id}`, {
            data: { type: 'varsets', attributes: { name: 'shared-renamed', description: 'second' } },
          }),
      ],
      ['adding a variable', async () => (added = (await createVar(writer, shown.id, { key: 'zone' })).id)],
      [
        'changing a variable',
        () => writer.patch(`${varsPath}/${added}`, { data: { type: 'vars', attributes: { value: 'eu-west-1' } } }),
      ],
      ['deleting a variable', () => writer.delete(`${varsPath}/${added}`)],
      ['assigning a set to a workspace', () => assign(writer, shown.id, 'workspaces', [w2])],
      [
        'removing a set from a workspace',
        () =>
          writer.delete(`/api/v2/varsets/${shown.id}/relationships/workspaces`, {
            data: [{ type: 'workspaces', id: w1 }],
          }),
      ],
      ['assigning a set to a project', () => assign(writer, shown.id, 'projects', [projectId])],
      [
        'removing a set from a project',
        () =>
          writer.delete(`/api/v2/varsets/${shown.id}/relationships/projects`, {
            data: [{ type: 'projects', id: projectId }],
          }),
      ],
      [
        'renaming a workspace',
        () =>
          writer.patch(`/api/v2/workspaces/${w2}`, {
            data: { type: 'workspaces', attributes: { name: 'worker-renamed' } },
          }),
      ],
      [
        'moving a workspace to another project',
        () =>
          writer.patch(`/api/v2/workspaces/${w1}`, {
            data: {
              type: 'workspaces',
              relationships: { project: { data: { type: 'projects', id: otherProjectId } } },
            },
          }),
      ],
      [
        'renaming a project',
        () =>
          writer.patch(`/api/v2/projects/${projectId}`, {
            data: { type: 'projects', attributes: { name: 'payments-renamed' } },
          }),
      ],
      [
        'making a set global',
        () => writer.patch(`/api/v2/varsets/${other.id}`, { data: { type: 'varsets', attributes: { global: true } } }),
      ],
      ['creating a set', () => createVarset(writer, org, { attributes: { name: 'shiny', global: true } })],
      ['deleting a workspace a set is assigned to', () => writer.delete(`/api/v2/workspaces/${w2}`)],
      ['deleting a set', () => writer.delete(`/api/v2/varsets/${other.id}`)],
      [
        'renaming the organization',
        async () => {
          const renamed = `${org}-renamed`;
          expectStatus(
            await writer.patch(`/api/v2/organizations/${org}`, {
              data: { type: 'organizations', attributes: { name: renamed } },
            }),
            200,
          );
          org = renamed;
        },
      ],
    ];
    for (const [name, write] of writes) {
      const result = await write();
      if (result && typeof result === 'object' && 'status' in result)
        assert.ok((result as { status: number }).status < 300, `${name}: ${JSON.stringify(result)}`);
      await expectSameAsUncached(urls(), name);
    }
    await writer.delete(`/api/v2/organizations/${org}`);
    await expectSameAsUncached(urls(), 'deleting the organization');
  });

  it('decides on every request who may read, whatever it has kept', async () => {
    const org = await createOrganization(writer);
    const w1 = (
      await writer.post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'granted' } },
      })
    ).body.data.id as string;
    const w2 = (
      await writer.post(`/api/v2/organizations/${org}/workspaces`, {
        data: { type: 'workspaces', attributes: { name: 'not-granted' } },
      })
    ).body.data.id as string;
    const readable = await createVarset(writer, org, { attributes: { name: 'readable' }, vars: [{ key: 'a' }] });
    const hidden = await createVarset(writer, org, { attributes: { name: 'hidden' }, vars: [{ key: 'b' }] });
    await assign(writer, readable.id, 'workspaces', [w1]);
    await assign(writer, hidden.id, 'workspaces', [w2]);
    const urls = [
      `/api/v2/varsets/${readable.id}`,
      `/api/v2/varsets/${hidden.id}`,
      `/api/v2/organizations/${org}/varsets`,
      `/api/v2/workspaces/${w1}/varsets`,
      `/api/v2/workspaces/${w2}/varsets`,
    ];
    // The site admin's reads are kept first.
    await expectSameAsUncached(urls, 'the site admin read');
    const teamId = await createTeam(writer, org);
    const token = await teamToken(writer, teamId);
    await grantWorkspace(writer, teamId, w1, { access: 'read' });
    await expectSameAsUncached(urls, 'a team with read access to one workspace read', token);
    assert.equal((await reader.get(`/api/v2/varsets/${hidden.id}`, { token })).status, 404);
    assert.deepEqual(
      (await reader.get(`/api/v2/organizations/${org}/varsets`, { token })).body.data.map((s: { id: string }) => s.id),
      [readable.id],
    );
    expectStatus(await writer.delete(`/api/v2/teams/${teamId}/authentication-token`), 204);
    assert.equal((await reader.get(`/api/v2/varsets/${readable.id}`, { token })).status, 401);
  });
});
