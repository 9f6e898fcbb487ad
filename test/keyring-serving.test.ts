import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openStore, type Store } from '../src/db/connect.js';
import { createKeyring, sealedKeyId } from '../src/secrets/keyring.js';
import { KEY_FILE, readKeyringFile } from '../src/secrets/keyring-file.js';
import { countSealedValues } from '../src/secrets/reseal.js';
import { createOrganization, createWorkspace } from './support/factories/organizations.js';
import { createRunOverHttp } from './support/factories/runs.js';
import { createVarset } from './support/factories/varsets.js';
import { runVarsetd, startServerProcess, varsetdEnv, type ServerProcess } from './support/processes.js';
import { ADMIN_TOKEN, expectStatus, httpClient, type Client } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** A server process on a fresh store, with a workspace and a set of `count` sensitive variables reaching it. */
async function servedSet(testStore: TestStore, workers: number, count: number) {
  const env = varsetdEnv(testStore, {
    VARSETD_ADMIN_TOKEN: ADMIN_TOKEN,
    VARSETD_WORKERS: String(workers),
    LOG_LEVEL: 'info',
  });
  const server = await startServerProcess(env);
  const client = httpClient(server.url);
  const org = await createOrganization(client);
  const ws = await createWorkspace(client, org);
  const set = await createVarset(client, org, {
    workspaces: [ws],
    vars: Array.from({ length: count }, (_, i) => ({ key: `v${i}`, value: `v${i}-r0`, sensitive: true })),
  });
  const variables: { id: string; key: string }[] = set.relationships.vars.data.map((v: any) => ({
    id: v.id,
    key: v.attributes.key,
  }));
  return { env, server, client, ws, setId: set.id as string, variables };
}

const patchValue = (client: Client, setId: string, id: string, value: string) =>
  client.patch(`/api/v2/varsets/${setId}/relationships/vars/${id}`, { data: { type: 'vars', attributes: { value } } });

/** The opened values of a run, by key; throws unless the server answers 200. */
async function openedValues(client: Client, run: string): Promise<Record<string, string>> {
  const res = await client.get(`/api/v2/runs/${run}/opened-variables`);
  expectStatus(res, 200);
  return Object.fromEntries(res.body.data.map((v: any) => [v.attributes.key, v.attributes.value]));
}

async function untilLogged(server: ServerProcess, pattern: RegExp, times = 1): Promise<void> {
  for (let waited = 0; (server.output().match(new RegExp(pattern, 'g')) ?? []).length < times; waited += 50) {
    if (waited > 10_000) throw new Error(`not logged: ${pattern}\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const storedValue = async (store: Store, id: string) =>
  (await store.db.selectFrom('varset_variables').select('value').where('id', '=', id).executeTakeFirstOrThrow()).value;

describe(`rotating the key while a server serves (${storeKind})`, () => {
  it('keeps every value written during the rotation, readable throughout, and ends with every value under the new key', async () => {
    const testStore = await createTestStore();
    const { env, server, client, ws, setId, variables } = await servedSet(testStore, 1, 8);
    let store: Store | undefined;
    try {
      const early = await createRunOverHttp(client, ws, 'before the rotation');
      const first = readKeyringFile(path.join(testStore.dataDir, KEY_FILE))![0]!.id;
      const last = new Map(variables.map((v) => [v.id, `${v.key}-r0`]));
      const failures: string[] = [];
      const loops = { stop: false };
      let rounds = 0;
      let reads = 0;
      const writer = (async () => {
        while (!loops.stop) {
          rounds++;
          for (const v of variables) {
            const value = `${v.key}-r${rounds}`;
            const res = await patchValue(client, setId, v.id, value);
            if (res.status === 200) last.set(v.id, value);
            else failures.push(`write ${res.status} ${JSON.stringify(res.body)}`);
          }
        }
      })();
      const reader = (async () => {
        while (!loops.stop) {
          const opened = await createRunOverHttp(client, ws, 'during the rotation')
            .then((run) => openedValues(client, run))
            .catch((error: unknown): Record<string, string> => (failures.push(String(error)), {}));
          for (const v of variables)
            if (opened[v.key] !== undefined && !new RegExp(`^${v.key}-r\\d+$`).test(opened[v.key]!))
              failures.push(`read ${v.key}=${opened[v.key]}`);
          reads++;
        }
      })();

      const rotated = await runVarsetd(['rotate-key', '--batch-size', '2'], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const second = readKeyringFile(path.join(testStore.dataDir, KEY_FILE))![0]!.id;
      assert.notEqual(second, first);
      // Not reloaded yet: the run's copies were re-sealed with a key the server meets for the first time.
      assert.deepEqual(
        await openedValues(client, early),
        Object.fromEntries(variables.map((v) => [v.key, `${v.key}-r0`])),
      );
      server.sendSignal('SIGHUP');
      await untilLogged(server, /reloaded the keyring/);
      const roundsAtReload = rounds;
      while (rounds < roundsAtReload + 2) await new Promise((resolve) => setTimeout(resolve, 20));
      loops.stop = true;
      await Promise.all([writer, reader]);
      assert.deepEqual(failures, []);
      assert.ok(reads > 1 && rounds > 3, `${reads} reads, ${rounds} rounds of writes`);

      const resealed = await runVarsetd(['rotate-key', '--reseal'], env);
      assert.equal(resealed.code, 0, resealed.stderr);
      assert.doesNotMatch(resealed.stdout, /still sealed/);
      store = await openStore(testStore);
      const keyring = createKeyring(readKeyringFile(path.join(testStore.dataDir, KEY_FILE))!);
      assert.deepEqual(
        [...(await countSealedValues(store.db, keyring)).keys()],
        [second],
        'every value, of variables, versions and runs, is sealed with the new key',
      );
      for (const v of variables)
        assert.equal(
          keyring.open(await storedValue(store, v.id)),
          last.get(v.id),
          `${v.key}: the last value written is the one kept`,
        );
      const retired = await runVarsetd(['keys', 'retire', first], env);
      assert.equal(retired.code, 0, retired.stderr);
      assert.equal((await openedValues(client, early)).v0, 'v0-r0');
    } finally {
      await store?.close();
      await server.stop();
      await testStore.dispose();
    }
  });

  it('has workers with the old keyring open values of the new key, and seal with it once SIGHUP reloads them', async () => {
    const testStore = await createTestStore();
    const { env, server, client, ws, setId, variables } = await servedSet(testStore, 2, 1);
    const store = await openStore(testStore);
    try {
      const [variable] = variables;
      const run = await createRunOverHttp(client, ws, 'before the rotation');
      const rotated = await runVarsetd(['rotate-key'], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const [second, first] = readKeyringFile(path.join(testStore.dataDir, KEY_FILE))!.map((k) => k.id);
      const sealedBy = async (times: number, prefix: string) => {
        const ids: (string | undefined)[] = [];
        for (let i = 0; i < times; i++) {
          expectStatus(await patchValue(client, setId, variable!.id, `${prefix}-${i}`), 200);
          ids.push(sealedKeyId(await storedValue(store, variable!.id)));
        }
        return ids;
      };
      assert.deepEqual(
        await sealedBy(4, 'before'),
        [first, first, first, first],
        'the workers seal with the key they were given',
      );
      for (let i = 0; i < 4; i++) assert.equal((await openedValues(client, run)).v0, 'v0-r0');
      assert.deepEqual(
        await sealedBy(4, 'opened'),
        [first, first, first, first],
        'meeting the new key does not make it the one that seals',
      );

      server.sendSignal('SIGHUP');
      await untilLogged(server, /reloaded the keyring/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(await sealedBy(6, 'after'), [second, second, second, second, second, second]);
    } finally {
      await store.close();
      await server.stop();
      await testStore.dispose();
    }
  });
});
