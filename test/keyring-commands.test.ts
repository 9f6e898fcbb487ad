import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { keyIdsInUse, loadKeyring, type LoadedKeyring } from '../src/secrets/key.js';
import { createKeyring, keyringKey, sealedKeyId, type KeyringKey } from '../src/secrets/keyring.js';
import { KEY_FILE, formatKey, parseKeyring, readKeyringFile } from '../src/secrets/keyring-file.js';
import { countSealedValues } from '../src/secrets/reseal.js';
import { generateKey } from '../src/secrets/sealer.js';
import { findSetting } from '../src/secrets/store.js';
import { createVarset } from './support/factories/varsets.js';
import { runVarsetd, varsetdEnv } from './support/processes.js';
import { expectStatus, injectClient, type Client } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** A store whose keyring was loaded as `serve` loads it, and a client of an app sealing with it (a server not reloaded since). */
async function storeWithValues(
  testStore: TestStore,
  encryptionKeys: KeyringKey[] | undefined,
): Promise<{ store: Store; loaded: LoadedKeyring; client: Client; close(): Promise<void> }> {
  const store = await openStore(testStore);
  await migrate(store);
  await ensureAdminToken(store, 'test-admin-token-0123456789abcdefghij', testStore.dataDir);
  const loaded = await loadKeyring(store, { encryptionKeys, dataDir: testStore.dataDir });
  const app = await buildApp({ store, sealer: loaded.keyring });
  return { store, loaded, client: injectClient(app), close: async () => (await app.close(), await store.close()) };
}

/** Makes a set of two sensitive variables, one of them replaced: three sealed values (the replaced one kept by the set's version). */
async function sealedThree(client: Client): Promise<{ setId: string; variableId: string }> {
  const org = `org-${Math.random().toString(36).slice(2, 8)}`;
  expectStatus(
    await client.post('/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: org, email: 'o@example.com' } },
    }),
    201,
  );
  const set = await createVarset(client, org, {
    vars: [
      { key: 'a', value: 'first', sensitive: true },
      { key: 'b', value: 'other', sensitive: true },
    ],
  });
  const variableId = set.relationships.vars.data[0].id;
  await replaceValue(client, { setId: set.id, variableId }, 'second');
  return { setId: set.id, variableId };
}

async function replaceValue(
  client: Client,
  { setId, variableId }: { setId: string; variableId: string },
  value: string,
): Promise<void> {
  expectStatus(
    await client.patch(`/api/v2/varsets/${setId}/relationships/vars/${variableId}`, {
      data: { type: 'vars', attributes: { value } },
    }),
    200,
  );
}

/** `varsetd keys list`'s rows: id → [state, count]. */
function listed(stdout: string): Record<string, [string, number]> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s+/))
      .map(([id, state, count]) => [id!, [state!, Number(count)]]),
  );
}

/** Every sealed value of the varsets tables, as a backup would keep them. */
const snapshot = async (store: Store) => ({
  variables: await store.db
    .selectFrom('varset_variables')
    .select(['id', 'value'])
    .where('sensitive', '=', true)
    .orderBy('id')
    .execute(),
  settings: await store.db.selectFrom('settings').selectAll().where('name', 'like', 'encryption-%').execute(),
});

describe(`varsetd rotate-key and keys with the key file (${storeKind})`, () => {
  it('adds a key while serving, re-seals, refuses to retire a key in use, retires it after --reseal, and an older backup still opens', async () => {
    const testStore = await createTestStore();
    const env = varsetdEnv(testStore);
    const keys = (...args: string[]) => runVarsetd(['keys', ...args], env);
    const file = path.join(testStore.dataDir, KEY_FILE);
    const server = await storeWithValues(testStore, undefined);
    try {
      const variable = await sealedThree(server.client);
      const first = server.loaded.keyring.active.id;
      const backup = await snapshot(server.store);
      assert.deepEqual(listed((await keys('list')).stdout), { [first]: ['active', 3] });

      assert.equal((await runVarsetd(['rotate-key', '--new-key', 'nope'], env)).code, 2);
      const given = generateKey();
      const rotated = await runVarsetd(['rotate-key', '--new-key', given.toString('hex'), '--batch-size', '1'], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const ring = readKeyringFile(file)!;
      const second = ring[0]!.id;
      assert.equal(second, keyringKey(given).id);
      assert.deepEqual(
        ring.map((k) => k.id),
        [second, first],
      );
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.match(rotated.stdout, new RegExp(`${second} is the active key of ${file}`));
      assert.match(rotated.stdout, /re-sealed 3 values/);
      assert.deepEqual(listed((await keys('list')).stdout), { [second]: ['active', 3], [first]: ['open', 0] });
      assert.equal(sealedKeyId((await findSetting(server.store.db, 'encryption-key-check'))!), second);

      // The server was not reloaded: it still seals with the first key, and opens the second.
      await replaceValue(server.client, variable, 'third');
      const counts = await countSealedValues(server.store.db, createKeyring(ring));
      assert.deepEqual(
        Object.fromEntries(counts),
        { [first]: 1, [second]: 3 },
        'the new value; the version keeps the one it replaced as it was sealed',
      );
      const refused = await keys('retire', first);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        new RegExp(
          `${first} still seals 1 stored value: send SIGHUP to every varsetd \\(or restart it\\), run varsetd rotate-key --reseal, then retire it`,
        ),
      );
      assert.match((await keys('retire', second)).stderr, /is the active key/);
      assert.match((await keys('retire', 'k0123456789abcdef')).stderr, /the keyring holds no key k0123456789abcdef/);
      assert.deepEqual(readKeyringFile(file), ring, 'a refused retirement changes nothing');

      server.loaded.keyring.replace(ring); // as SIGHUP does
      await replaceValue(server.client, variable, 'fourth');
      const resealed = await runVarsetd(['rotate-key', '--reseal'], env);
      assert.match(
        resealed.stdout,
        new RegExp(`re-sealed 1 value with ${second}`),
        'the value the version of "fourth" keeps',
      );
      assert.doesNotMatch(resealed.stdout, /still sealed/);
      const retired = await keys('retire', first);
      assert.equal(retired.code, 0, retired.stderr);
      assert.deepEqual(
        readKeyringFile(file)!.map((k) => [k.id, k.retired]),
        [
          [second, false],
          [first, true],
        ],
      );
      assert.deepEqual(await keyIdsInUse(server.store), [second]);
      assert.deepEqual(listed((await keys('list')).stdout), { [second]: ['active', 5], [first]: ['retired', 0] });

      // A varsetd not reloaded since still seals with the retired key: keys list says so.
      server.loaded.keyring.replace([ring[1]!, ring[0]!]);
      await replaceValue(server.client, variable, 'fifth');
      const stale = await keys('list');
      assert.deepEqual(listed(stale.stdout)[first], ['retired', 1]);
      assert.match(
        stale.stderr,
        new RegExp(
          `the retired key ${first} seals values again .*send SIGHUP to every varsetd, then run varsetd rotate-key --reseal`,
        ),
      );
      server.loaded.keyring.replace(ring);

      // A backup taken before the rotation, restored: today's keyring opens it.
      await server.store.db.deleteFrom('settings').where('name', 'like', 'encryption-%').execute();
      await server.store.db.insertInto('settings').values(backup.settings).execute();
      for (const row of backup.variables)
        await server.store.db
          .updateTable('varset_variables')
          .set({ value: row.value })
          .where('id', '=', row.id)
          .execute();
      const restored = await keys('list');
      assert.equal(restored.code, 0, restored.stderr);
      assert.equal(listed(restored.stdout)[first]![0], 'retired');
      const today = (await loadKeyring(server.store, { encryptionKeys: undefined, dataDir: testStore.dataDir }))
        .keyring;
      assert.deepEqual(backup.variables.map((row) => today.open(row.value)).sort(), ['other', 'second']);
    } finally {
      await server.close();
      await testStore.dispose();
    }
  });
});

describe(`varsetd rotate-key and keys with VARSETD_ENCRYPTION_KEY (${storeKind})`, () => {
  it('prints the keyring to set, re-seals once it is set, refuses a keyring lacking a key in use, and retires by printing', async () => {
    const testStore = await createTestStore();
    const old = generateKey();
    const envWith = (keyring: string) => varsetdEnv(testStore, { VARSETD_ENCRYPTION_KEY: keyring });
    const server = await storeWithValues(testStore, [keyringKey(old)]);
    try {
      await sealedThree(server.client);
      const oldId = keyringKey(old).id;
      const added = await runVarsetd(['rotate-key'], envWith(formatKey(old)));
      assert.equal(added.code, 0, added.stderr);
      const printed = added.stdout.split('\n').find((line) => line.endsWith(formatKey(old)))!;
      const keyring = parseKeyring(printed, ',', 'printed');
      const newId = keyring[0]!.id;
      assert.deepEqual(
        keyring.map((k) => k.id),
        [newId, oldId],
      );
      assert.ok(!fs.existsSync(path.join(testStore.dataDir, KEY_FILE)), 'no key file is written');
      assert.deepEqual(
        Object.fromEntries(await countSealedValues(server.store.db, createKeyring(keyring))),
        { [oldId]: 3 },
        'nothing is re-sealed before the servers have the key',
      );

      const resealed = await runVarsetd(['rotate-key', '--reseal'], envWith(printed));
      assert.match(resealed.stdout, new RegExp(`re-sealed 3 values with ${newId}`));
      assert.deepEqual(Object.fromEntries(await countSealedValues(server.store.db, createKeyring(keyring))), {
        [newId]: 3,
      });
      const lacking = await runVarsetd(['keys', 'list'], envWith(formatKey(old)));
      assert.equal(lacking.code, 1);
      assert.match(
        lacking.stderr,
        new RegExp(`the keyring in VARSETD_ENCRYPTION_KEY lacks the key this database uses: ${newId}\\n`),
      );

      const retired = await runVarsetd(['keys', 'retire', oldId], envWith(printed));
      assert.equal(retired.code, 0, retired.stderr);
      assert.ok(retired.stdout.includes(`${printed.split(',')[0]},${formatKey(old)} retired`), retired.stdout);
      assert.deepEqual(await keyIdsInUse(server.store), [newId]);
      assert.deepEqual(listed((await runVarsetd(['keys', 'list'], envWith(`${printed} retired`))).stdout), {
        [newId]: ['active', 3],
        [oldId]: ['retired', 0],
      });
    } finally {
      await server.close();
      await testStore.dispose();
    }
  });
});
