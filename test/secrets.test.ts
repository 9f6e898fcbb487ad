import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildApp } from '../src/app.js';
import { ensureAdminToken } from '../src/auth/tokens.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { KEY_FILE, KeyError, NEXT_KEY_FILE, formatKey, loadSealer, parseKey, writeKeyFile } from '../src/secrets/key.js';
import { rotateKey } from '../src/secrets/rotate.js';
import { SealError, createSealer, generateKey } from '../src/secrets/sealer.js';
import { TestApp } from './support/app.js';
import { ADMIN_TOKEN, expectStatus } from './support/requests.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

const run = promisify(execFile);

describe('sealer', () => {
  const key = generateKey();
  const sealer = createSealer(key);

  it('round-trips values, with a fresh nonce each time', () => {
    for (const text of ['', 's3cr3t', 'ünïcødé ✓', 'x'.repeat(300_000)]) {
      const sealed = sealer.seal(text);
      assert.match(sealed, /^v1:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]+$/);
      assert.equal(sealer.open(sealed), text);
    }
    assert.notEqual(sealer.seal('same'), sealer.seal('same'));
    assert.ok(!sealer.seal('plain-text-value').includes('plain-text-value'));
  });

  it('refuses another key, a damaged value and anything not sealed', () => {
    const sealed = sealer.seal('s3cr3t');
    assert.throws(() => createSealer(generateKey()).open(sealed), SealError);
    const [v, nonce, body] = sealed.split(':');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0]! ^= 1;
    assert.throws(() => sealer.open(`${v}:${nonce}:${flipped.toString('base64')}`), SealError);
    for (const bad of ['s3cr3t', 'v2:abc:def', 'v1::', `v1:${nonce}`]) assert.throws(() => sealer.open(bad), SealError);
    assert.throws(() => createSealer(Buffer.alloc(16)), SealError);
  });

  it('reads keys written as hex or base64, and nothing else', () => {
    assert.deepEqual(parseKey(key.toString('hex')), key);
    assert.deepEqual(parseKey(key.toString('base64')), key);
    assert.deepEqual(parseKey(key.toString('base64url')), key);
    assert.deepEqual(parseKey(`  ${formatKey(key)}\n`), key);
    for (const bad of ['', 'short', generateKey().toString('hex').slice(2), Buffer.alloc(31).toString('base64'), 'z'.repeat(64)]) {
      assert.equal(parseKey(bad), undefined, bad);
    }
  });

  it('validates VARSETD_ENCRYPTION_KEY at start', () => {
    assert.deepEqual(loadConfig({ VARSETD_ENCRYPTION_KEY: key.toString('hex') }, []).encryptionKey, key);
    assert.deepEqual(loadConfig({}, ['--encryption-key', key.toString('base64')]).encryptionKey, key);
    assert.equal(loadConfig({}, []).encryptionKey, undefined);
    assert.throws(() => loadConfig({ VARSETD_ENCRYPTION_KEY: 'not-a-key' }, []), ConfigError);
  });
});

describe(`encryption key (${storeKind})`, () => {
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

  it('generates a key file on first start, readable by its owner only, and keeps using it', async () => {
    const file = path.join(testStore.dataDir, KEY_FILE);
    const first = await loadSealer(store, { configuredKey: undefined, dataDir: testStore.dataDir });
    assert.equal(first.source, 'file');
    assert.equal(first.generated, true);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const sealed = first.sealer.seal('kept');
    const second = await loadSealer(store, { configuredKey: undefined, dataDir: testStore.dataDir });
    assert.equal(second.sealer.open(sealed), 'kept');
    assert.equal(second.generated, false);
  });

  it('refuses to start with another key, or with none when values are sealed', async () => {
    await assert.rejects(loadSealer(store, { configuredKey: generateKey(), dataDir: testStore.dataDir }), KeyError);
    const empty = fs.mkdtempSync(path.join(testStore.dataDir, 'other-'));
    await assert.rejects(loadSealer(store, { configuredKey: undefined, dataDir: empty }), /none is configured/);
    const fileKey = parseKey(fs.readFileSync(path.join(testStore.dataDir, KEY_FILE), 'utf8'))!;
    const configured = await loadSealer(store, { configuredKey: fileKey, dataDir: empty });
    assert.equal(configured.source, 'configured');
  });

  it('finishes a rotation that committed before the key file was replaced', async () => {
    const dir = testStore.dataDir;
    const current = await loadSealer(store, { configuredKey: undefined, dataDir: dir });
    const next = generateKey();
    writeKeyFile(path.join(dir, NEXT_KEY_FILE), next);
    await rotateKey(store, current.sealer, createSealer(next));
    const after = await loadSealer(store, { configuredKey: undefined, dataDir: dir });
    assert.ok(!fs.existsSync(path.join(dir, NEXT_KEY_FILE)));
    assert.deepEqual(parseKey(fs.readFileSync(path.join(dir, KEY_FILE), 'utf8')), next);
    assert.equal(after.sealer.open(createSealer(next).seal('x')), 'x');
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

  const rawValue = async (id: string) => (await t.store.db.selectFrom('varset_variables').select(['value', 'sensitive']).where('id', '=', id).executeTakeFirstOrThrow()).value;

  /** The sealed values set versions keep (what a rollback puts back), in a stable order. */
  async function valuesKeptByVersions(): Promise<string[]> {
    const rows = await t.store.db.selectFrom('varset_versions').select('sealed').where('sealed', 'is not', null).orderBy('id').execute();
    return rows.flatMap((row) => Object.values(JSON.parse(row.sealed!) as Record<string, string>));
  }

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
    assert.match(stored, /^v1:/);
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
    expectStatus(await t.patch(url, { data: { type: 'vars', attributes: { description: 'the database password' } } }), 200);
    assert.equal(t.app.sealer.open(await rawValue(sensitive.id)), 'rotated-secret');

    // Making a plain variable sensitive seals the value it had.
    expectStatus(await t.patch(`/api/v2/varsets/${id}/relationships/vars/${plain.id}`, { data: { type: 'vars', attributes: { sensitive: true } } }), 200);
    const sealedNow = await rawValue(plain.id);
    assert.match(sealedNow, /^v1:/);
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

  it('re-encrypts every sealed value on rotation, in one transaction', async () => {
    const { vars } = await createSet([{ key: 'rotating', value: 'before-rotation', category: 'env', sensitive: true }]);
    const id = vars[0].id;
    const old = t.app.sealer;
    const newSealer = createSealer(generateKey());
    const before = await t.store.db.selectFrom('varset_variables').select(['id', 'value']).where('sensitive', '=', true).execute();
    const keptBefore = await valuesKeptByVersions();
    assert.ok(keptBefore.length > 0, 'the earlier tests replaced sensitive values, which their versions keep');
    const count = await rotateKey(t.store, old, newSealer);
    assert.equal(count, before.length + keptBefore.length);
    const kept = await valuesKeptByVersions();
    assert.deepEqual(
      kept.map((v) => newSealer.open(v)),
      keptBefore.map((v) => old.open(v)),
      'the values versions keep for a rollback are re-encrypted too',
    );
    const stored = await rawValue(id);
    assert.equal(newSealer.open(stored), 'before-rotation');
    assert.throws(() => old.open(stored), SealError);
    const plain = await t.store.db.selectFrom('varset_variables').select('value').where('sensitive', '=', false).execute();
    assert.ok(
      plain.every((r) => !r.value.startsWith('v1:')),
      'plain values are untouched',
    );

    // A value that does not open with the old key stops the rotation before anything changes.
    await t.store.db
      .updateTable('varset_variables')
      .set({ value: old.seal('sealed with the previous key') })
      .where('id', '=', id)
      .execute();
    const snapshot = await t.store.db.selectFrom('varset_variables').select(['id', 'value']).orderBy('id').execute();
    await assert.rejects(rotateKey(t.store, newSealer, createSealer(generateKey())), SealError);
    assert.deepEqual(await t.store.db.selectFrom('varset_variables').select(['id', 'value']).orderBy('id').execute(), snapshot);
  });
});

describe(`varsetd rotate-key (${storeKind})`, () => {
  it('re-encrypts the store’s values and replaces the key file', async () => {
    const testStore = await createTestStore();
    const env: NodeJS.ProcessEnv = { ...process.env, VARSETD_DATA_DIR: testStore.dataDir, ...(testStore.databaseUrl ? { DATABASE_URL: testStore.databaseUrl } : {}) };
    delete env.VARSETD_ENCRYPTION_KEY;
    let store = await openStore(testStore);
    try {
      await migrate(store);
      await ensureAdminToken(store, ADMIN_TOKEN, testStore.dataDir);
      const { sealer } = await loadSealer(store, { configuredKey: undefined, dataDir: testStore.dataDir });
      const app = await buildApp({ store, sealer });
      const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/vnd.api+json' };
      await app.inject({
        method: 'POST',
        url: '/api/v2/organizations',
        headers,
        payload: { data: { type: 'organizations', attributes: { name: 'rot', email: 'r@example.com' } } },
      });
      const set = await app.inject({
        method: 'POST',
        url: '/api/v2/organizations/rot/varsets',
        headers,
        payload: {
          data: {
            type: 'varsets',
            attributes: { name: 's' },
            relationships: { vars: { data: [{ type: 'vars', attributes: { key: 'k', value: 'cli-secret', category: 'env', sensitive: true } }] } },
          },
        },
      });
      assert.equal(set.statusCode, 200);
      await app.close();
      await store.close();

      const oldKey = fs.readFileSync(path.join(testStore.dataDir, KEY_FILE), 'utf8');
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'rotate-key'], { env });
      assert.match(stdout, /re-encrypted 1 sealed values/);
      const newKey = fs.readFileSync(path.join(testStore.dataDir, KEY_FILE), 'utf8');
      assert.notEqual(newKey, oldKey);
      assert.equal(fs.statSync(path.join(testStore.dataDir, KEY_FILE)).mode & 0o777, 0o600);

      store = await openStore(testStore);
      const value = (await store.db.selectFrom('varset_variables').select('value').executeTakeFirstOrThrow()).value;
      assert.equal(createSealer(parseKey(newKey)!).open(value), 'cli-secret');
      assert.throws(() => createSealer(parseKey(oldKey)!).open(value), SealError);
      const bad = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'rotate-key', '--new-key', 'nope'], { env }).catch((e: unknown) => e);
      assert.equal((bad as { code: number }).code, 2);
    } finally {
      await store.close().catch(() => {});
      await testStore.dispose();
    }
  });
});
