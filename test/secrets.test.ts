import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { transaction } from '../src/db/transaction.js';
import { keyIdsInUse, loadKeyring } from '../src/secrets/key.js';
import { createKeyring, keyId, keyringKey, sealedKeyId, type Keyring } from '../src/secrets/keyring.js';
import {
  KEY_FILE,
  KeyError,
  formatKey,
  parseKey,
  parseKeyring,
  readKeyring,
  readKeyringFile,
  writeKeyringFile,
} from '../src/secrets/keyring-file.js';
import { countSealedValues, forEachSealedValue, resealValues } from '../src/secrets/reseal.js';
import { SealError, encrypt, generateKey } from '../src/secrets/sealer.js';
import { replaceSealedValue, SEALED_COLUMNS, sealedValues } from '../src/secrets/store.js';
import { TestApp } from './support/app.js';
import { createRun } from './support/factories/runs.js';
import { createVarset } from './support/factories/varsets.js';
import { expectStatus } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

/** A value as varsetd sealed it before the keyring. */
const sealedV1 = (key: Buffer, text: string) => `v1:${encrypt(key, text)}`;

describe('the keyring', () => {
  const [a, b] = [keyringKey(generateKey()), keyringKey(generateKey())];

  it('seals with its first key, naming it, and opens what any of its keys sealed', () => {
    const ring = createKeyring([a, b]);
    for (const text of ['', 's3cr3t', 'ünïcødé ✓', 'x'.repeat(300_000)]) {
      const sealed = ring.seal(text);
      assert.match(sealed, /^v2:k[0-9a-f]{16}:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]+$/);
      assert.equal(sealedKeyId(sealed), a.id);
      assert.equal(ring.open(sealed), text);
    }
    assert.notEqual(ring.seal('same'), ring.seal('same'));
    assert.equal(ring.open(createKeyring([b]).seal('by b')), 'by b');
    assert.equal(ring.keyOf(createKeyring([b]).seal('by b')), b.id);
  });

  it('derives each key id from the key, so that an id never names another key', () => {
    assert.equal(keyId(a.key), a.id);
    assert.match(a.id, /^k[0-9a-f]{16}$/);
    assert.notEqual(a.id, b.id);
    assert.notEqual(a.id.slice(1), a.key.toString('hex').slice(0, 16));
  });

  it('opens values sealed before the keyring with whichever key opens them', () => {
    const old = sealedV1(b.key, 'before the keyring');
    const ring = createKeyring([a, b]);
    assert.equal(sealedKeyId(old), undefined);
    assert.equal(ring.open(old), 'before the keyring');
    assert.equal(ring.keyOf(old), b.id);
    assert.throws(() => createKeyring([a]).open(old), SealError);
    assert.equal(createKeyring([a]).keyOf(old), undefined);
  });

  it('refuses a key it lacks, a damaged value and anything not sealed', () => {
    const ring = createKeyring([a]);
    assert.throws(
      () => ring.open(createKeyring([b]).seal('x')),
      new RegExp(`names the encryption key ${b.id}, which the keyring does not hold`),
    );
    const [v, id, nonce, body] = ring.seal('s3cr3t').split(':');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0]! ^= 1;
    assert.throws(() => ring.open(`${v}:${id}:${nonce}:${flipped.toString('base64')}`), SealError);
    for (const bad of ['s3cr3t', 'v2:abc:def', 'v1::', `v2:${id}:${nonce}`, `v3:${id}:${nonce}:${body}`])
      assert.throws(() => ring.open(bad), SealError, bad);
    assert.throws(() => keyringKey(Buffer.alloc(16)), SealError);
  });

  it('reads its keys again, once per value, when a value names a key it lacks, sealing with the same key until told', () => {
    let reloads = 0;
    const ring = createKeyring([a], () => {
      reloads++;
      return reloads === 1 ? [b, a] : undefined;
    });
    assert.equal(ring.open(createKeyring([b]).seal('rotated')), 'rotated');
    assert.equal(reloads, 1);
    assert.equal(sealedKeyId(ring.seal('x')), a.id, 'a key met in a value does not change the key that seals');
    assert.deepEqual(
      ring.keys.map((k) => k.id),
      [a.id, b.id],
    );
    assert.throws(() => ring.open(createKeyring([keyringKey(generateKey())]).seal('x')), SealError);
    assert.equal(reloads, 2);
  });
});

describe('keyring files and VARSETD_ENCRYPTION_KEY', () => {
  const [a, b, c] = [generateKey(), generateKey(), generateKey()];

  it('reads keys written as hex or base64, and nothing else', () => {
    assert.deepEqual(parseKey(a.toString('hex')), a);
    assert.deepEqual(parseKey(a.toString('base64')), a);
    assert.deepEqual(parseKey(a.toString('base64url')), a);
    assert.deepEqual(parseKey(`  ${formatKey(a)}\n`), a);
    for (const bad of [
      '',
      'short',
      generateKey().toString('hex').slice(2),
      Buffer.alloc(31).toString('base64'),
      'z'.repeat(64),
    ]) {
      assert.equal(parseKey(bad), undefined, bad);
    }
  });

  it('reads one key per line, the first active, a retired marker kept; a file of one key is a keyring of one', () => {
    const keys = parseKeyring(`${formatKey(a)}\n\n${b.toString('hex')}\n${formatKey(c)} retired\n`, '\n', 'f');
    assert.deepEqual(
      keys.map((k) => [k.id, k.retired]),
      [
        [keyId(a), false],
        [keyId(b), false],
        [keyId(c), true],
      ],
    );
    assert.deepEqual(parseKeyring(`${formatKey(a)}\n`, '\n', 'f'), [keyringKey(a)]);
    assert.throws(
      () => parseKeyring(`${formatKey(a)}\nnot-a-key\n`, '\n', 'f'),
      (error: unknown) => error instanceof KeyError && error.message.startsWith('f, line 2: expected a 32-byte key'),
    );
    assert.throws(() => parseKeyring(`${formatKey(a)} gone`, '\n', 'f'), /line 1: expected/);
    assert.throws(
      () => parseKeyring(`${formatKey(a)} retired\n${formatKey(b)}`, '\n', 'f'),
      /the first key seals new values, so it cannot be retired/,
    );
    assert.throws(
      () => parseKeyring(`${formatKey(a)}\n${a.toString('hex')}`, '\n', 'f'),
      new RegExp(`the key ${keyId(a)} is there twice`),
    );
    assert.throws(() => parseKeyring('\n', '\n', 'f'), KeyError);
  });

  it('writes the keyring file whole, readable by its owner only, and never over a change it did not read', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'keyring-'));
    try {
      const file = path.join(dir, KEY_FILE);
      assert.equal(writeKeyringFile(file, [keyringKey(a)], { exclusive: true }), true);
      assert.equal(
        writeKeyringFile(file, [keyringKey(b)], { exclusive: true }),
        false,
        'an exclusive write keeps the file there',
      );
      writeKeyringFile(file, [keyringKey(b), keyringKey(a, true)], { replacing: [keyringKey(a)] });
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(readKeyringFile(file), [keyringKey(b), keyringKey(a, true)]);
      assert.deepEqual(fs.readdirSync(dir), [KEY_FILE], 'no temporary file is left behind');
      // A command that read the file before another rewrote it must not drop the other's key.
      assert.throws(
        () => writeKeyringFile(file, [keyringKey(a, false)], { replacing: [keyringKey(a)] }),
        (error: unknown) => error instanceof KeyError && /changed while this command ran/.test(error.message),
      );
      assert.deepEqual(
        readKeyringFile(file),
        [keyringKey(b), keyringKey(a, true)],
        'the file is as the other command left it',
      );
      assert.deepEqual(fs.readdirSync(dir), [KEY_FILE], 'no temporary file is left behind after a refusal');
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  it('takes several keys in VARSETD_ENCRYPTION_KEY, separated by commas, the first sealing', () => {
    const config = loadConfig(
      { VARSETD_ENCRYPTION_KEY: `${a.toString('hex')}, ${formatKey(b)},${formatKey(c)} retired` },
      [],
    );
    assert.deepEqual(config.encryptionKeys, [keyringKey(a), keyringKey(b), keyringKey(c, true)]);
    assert.deepEqual(loadConfig({}, ['--encryption-key', formatKey(a)]).encryptionKeys, [keyringKey(a)]);
    assert.equal(loadConfig({}, []).encryptionKeys, undefined);
    assert.deepEqual(readKeyring({ ...config, dataDir: '/nowhere' }), {
      source: 'configured',
      file: `/nowhere/${KEY_FILE}`,
      keys: config.encryptionKeys,
    });
    assert.throws(() => loadConfig({ VARSETD_ENCRYPTION_KEY: 'not-a-key' }, []), ConfigError);
    assert.throws(
      () => loadConfig({ VARSETD_ENCRYPTION_KEY: `${formatKey(a)},nope` }, []),
      /VARSETD_ENCRYPTION_KEY, key 2: expected a 32-byte key/,
    );
  });
});

describe(`sensitive values at rest (${storeKind})`, () => {
  let t: TestApp;
  let org: string;
  before(async () => {
    t = await TestApp.start();
    org = await t.createOrganization();
  });
  after(async () => t.close());

  const rawValue = async (id: string) =>
    (
      await t.store.db
        .selectFrom('varset_variables')
        .select(['value', 'sensitive'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).value;

  async function createSet(vars: Record<string, unknown>[] = []): Promise<{ id: string; vars: any[] }> {
    const res = await t.post(`/api/v2/organizations/${org}/varsets`, {
      data: {
        type: 'varsets',
        attributes: { name: `set-${Math.random().toString(36).slice(2)}` },
        relationships: { vars: { data: vars.map((attributes) => ({ type: 'vars', attributes })) } },
      },
    });
    expectStatus(res, 200);
    return { id: res.body.data.id, vars: res.body.data.relationships.vars.data };
  }

  it('stores a sensitive value sealed, whichever way it is written, and plain values as they are', async () => {
    const { id, vars } = await createSet([
      { key: 'db_password', value: 'hunter2-in-body', category: 'terraform', sensitive: true },
      { key: 'region', value: 'eu-west-1', category: 'env' },
    ]);
    const sensitive = vars.find((v) => v.attributes.key === 'db_password');
    const plain = vars.find((v) => v.attributes.key === 'region');
    assert.equal(sensitive.attributes.value, null);
    const stored = await rawValue(sensitive.id);
    assert.equal(sealedKeyId(stored), t.app.sealer.active.id);
    assert.ok(!stored.includes('hunter2'));
    assert.equal(t.app.sealer.open(stored), 'hunter2-in-body');
    assert.equal(await rawValue(plain.id), 'eu-west-1');

    const added = await t.post(`/api/v2/varsets/${id}/relationships/vars`, {
      data: { type: 'vars', attributes: { key: 'api_key', value: 'added-secret', category: 'env', sensitive: true } },
    });
    expectStatus(added, 200);
    assert.equal(t.app.sealer.open(await rawValue(added.body.data.id)), 'added-secret');

    // Replacing the value seals the new one; an update without a value keeps the sealed one.
    const url = `/api/v2/varsets/${id}/relationships/vars/${sensitive.id}`;
    expectStatus(await t.patch(url, { data: { type: 'vars', attributes: { value: 'rotated-secret' } } }), 200);
    assert.equal(t.app.sealer.open(await rawValue(sensitive.id)), 'rotated-secret');
    expectStatus(
      await t.patch(url, { data: { type: 'vars', attributes: { description: 'the database password' } } }),
      200,
    );
    assert.equal(t.app.sealer.open(await rawValue(sensitive.id)), 'rotated-secret');

    // Making a plain variable sensitive seals the value it had.
    expectStatus(
      await t.patch(`/api/v2/varsets/${id}/relationships/vars/${plain.id}`, {
        data: { type: 'vars', attributes: { sensitive: true } },
      }),
      200,
    );
    const sealedNow = await rawValue(plain.id);
    assert.equal(sealedKeyId(sealedNow), t.app.sealer.active.id);
    assert.equal(t.app.sealer.open(sealedNow), 'eu-west-1');
  });

  it('leaves no sensitive value in the clear anywhere in the database', async () => {
    const marker = 'needle-7f3a9c-sensitive';
    await createSet([{ key: 'needle', value: marker, category: 'terraform', sensitive: true }]);
    const tables = ['varsets', 'varset_variables', 'varset_versions', 'tokens', 'settings', 'teams'] as const;
    for (const table of tables) {
      const rows = await t.store.db.selectFrom(table).selectAll().execute();
      assert.ok(!JSON.stringify(rows).includes(marker), table);
    }
  });
});

describe(`the keyring of a store (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;
  before(async () => {
    testStore = await createTestStore();
    store = await openStore(testStore);
    await migrate(store);
  });
  after(async () => {
    await store.close();
    await testStore.dispose();
  });
  const fileSettings = () => ({ encryptionKeys: undefined, dataDir: testStore.dataDir });

  it('generates a key file on first start, readable by its owner only, keeps using it and records its key', async () => {
    const file = path.join(testStore.dataDir, KEY_FILE);
    const first = await loadKeyring(store, fileSettings());
    assert.equal(first.source, 'file');
    assert.equal(first.generated, true);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(await keyIdsInUse(store), [first.keyring.active.id]);
    const sealed = first.keyring.seal('kept');
    const second = await loadKeyring(store, fileSettings());
    assert.equal(second.keyring.open(sealed), 'kept');
    assert.equal(second.generated, false);
  });

  it('refuses a keyring that lacks a key the database uses, naming every missing one on one line', async () => {
    const current = readKeyringFile(path.join(testStore.dataDir, KEY_FILE))!;
    const added = keyringKey(generateKey());
    await loadKeyring(store, { encryptionKeys: [added, ...current], dataDir: testStore.dataDir });
    const other = keyringKey(generateKey());
    await assert.rejects(
      loadKeyring(store, { encryptionKeys: [other], dataDir: testStore.dataDir }),
      (error: Error) => {
        assert.ok(error instanceof KeyError);
        assert.equal(
          error.message,
          `the keyring in VARSETD_ENCRYPTION_KEY lacks keys this database uses: ${[added.id, current[0]!.id].sort().join(', ')}`,
        );
        return true;
      },
    );
    await assert.rejects(
      loadKeyring(store, { encryptionKeys: [added], dataDir: testStore.dataDir }),
      new RegExp(`lacks the key this database uses: ${current[0]!.id}$`),
    );
    const empty = fs.mkdtempSync(path.join(testStore.dataDir, 'other-'));
    await assert.rejects(loadKeyring(store, { encryptionKeys: undefined, dataDir: empty }), /none is configured/);
  });
});

/** Every sealed value of the store, by column, each JSON map's values in order. */
async function storedSealedValues(store: Store): Promise<string[]> {
  const values: string[] = [];
  await forEachSealedValue(store.db, (value) => values.push(value), 2);
  return values;
}

/** Rewrites every sealed value as varsetd sealed it before the keyring, with `key`. */
async function sealAllAsV1(store: Store, ring: Keyring, key: Buffer): Promise<void> {
  const v1 = (value: string) => sealedV1(key, ring.open(value));
  await transaction(store, async (trx) => {
    for (const column of SEALED_COLUMNS) {
      for (const row of await sealedValues(trx, column, '', 10_000)) {
        const value = column.map
          ? JSON.stringify(
              Object.fromEntries(
                Object.entries(JSON.parse(row.value) as Record<string, string>).map(([k, v]) => [k, v1(v)]),
              ),
            )
          : v1(row.value);
        assert.ok(await replaceSealedValue(trx, column, row.id, row.value, value));
      }
    }
  });
}

describe(`a database sealed before the keyring (${storeKind})`, () => {
  it('starts with its one-key file as a keyring of one, counts its values, and is re-sealed whole', async () => {
    const old = generateKey();
    const t = await TestApp.start({ sealer: createKeyring([keyringKey(old)]) });
    const dataDir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'keyring-'));
    try {
      const org = await t.createOrganization();
      const ws = await t.createWorkspace(org);
      const set = await createVarset(t, org, {
        workspaces: [ws],
        vars: [{ key: 'pw', value: 'first', sensitive: true }],
      });
      const variable = set.relationships.vars.data[0].id;
      expectStatus(
        await t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${variable}`, {
          data: { type: 'vars', attributes: { value: 'second' } },
        }),
        200,
      );
      expectStatus(
        await t.post(`/api/v2/workspaces/${ws}/vars`, {
          data: {
            type: 'vars',
            attributes: { key: 'ws', value: 'workspace-secret', category: 'env', sensitive: true },
          },
        }),
        201,
      );
      await createRun(t, ws);
      const plaintexts = (await storedSealedValues(t.store)).map((v) => t.app.sealer.open(v));
      const tables = new Set<string>();
      await forEachSealedValue(t.store.db, (_, place) => tables.add(`${place.table}.${place.column}`));
      assert.deepEqual(
        [...tables],
        ['varset_variables.value', 'workspace_variables.value', 'run_effective_values.value', 'varset_versions.sealed'],
      );
      assert.deepEqual(
        [...plaintexts].sort(),
        ['first', 'second', 'second', 'workspace-secret', 'workspace-secret'].sort(),
        'values of sets, their versions, workspaces and runs',
      );
      // As varsetd left it: one key in the file, the check and the values sealed v1.
      await sealAllAsV1(t.store, t.app.sealer, old);
      await t.store.db
        .insertInto('settings')
        .values({ name: 'encryption-key-check', value: sealedV1(old, 'varsetd encryption key check') })
        .execute();
      fs.writeFileSync(path.join(dataDir, KEY_FILE), `${formatKey(old)}\n`, { mode: 0o600 });

      await assert.rejects(
        loadKeyring(t.store, { encryptionKeys: [keyringKey(generateKey())], dataDir }),
        /is not the key this database was sealed with/,
      );
      const { keyring } = await loadKeyring(t.store, { encryptionKeys: undefined, dataDir });
      assert.deepEqual(await keyIdsInUse(t.store), [keyId(old)]);
      assert.deepEqual(await countSealedValues(t.store.db, keyring), new Map([[keyId(old), 5]]));
      assert.deepEqual(
        (await storedSealedValues(t.store)).map((v) => keyring.open(v)),
        plaintexts,
      );

      const next = keyringKey(generateKey());
      keyring.replace([next, ...keyring.keys]);
      assert.deepEqual(await resealValues(t.store, keyring, 2), { resealed: 5, remaining: 0 });
      const after = await storedSealedValues(t.store);
      assert.deepEqual(
        after.map((v) => createKeyring([next]).open(v)),
        plaintexts,
      );
      assert.deepEqual(await countSealedValues(t.store.db, keyring), new Map([[next.id, 5]]));
      assert.deepEqual(
        await resealValues(t.store, keyring, 2),
        { resealed: 0, remaining: 0 },
        'a second pass finds nothing to do',
      );
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true });
    }
  });
});

describe(`re-sealing (${storeKind})`, () => {
  it('replaces a value only while it is still the one read, so that a concurrent write is never clobbered', async () => {
    const t = await TestApp.start();
    try {
      const org = await t.createOrganization();
      const set = await createVarset(t, org, { vars: [{ key: 'pw', value: 'read', sensitive: true }] });
      const column = SEALED_COLUMNS[0]!;
      const [row] = await sealedValues(t.store.db, column, '', 10);
      const variable = set.relationships.vars.data[0].id;
      expectStatus(
        await t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${variable}`, {
          data: { type: 'vars', attributes: { value: 'written meanwhile' } },
        }),
        200,
      );
      const replaced = await transaction(t.store, (trx) =>
        replaceSealedValue(trx, column, row!.id, row!.value, t.app.sealer.seal('read')),
      );
      assert.equal(replaced, false);
      const [now] = await sealedValues(t.store.db, column, '', 10);
      assert.equal(t.app.sealer.open(now!.value), 'written meanwhile');
    } finally {
      await t.close();
    }
  });
});
