import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { SubjectCache } from '../src/auth/subject-cache.js';
import { ADMIN_TOKEN_FILE, ensureAdminToken } from '../src/auth/tokens.js';
import { migrate, openStore, type Store } from '../src/db/connect.js';
import { createTestStore, storeKind, type TestStore } from './support/store.js';

const CONFIGURED = 'configured-admin-token-0123456789abcdef';

/** The site-admin token: generated once into the data folder, or configured, and then the only one. */
describe(`the site-admin token (${storeKind})`, () => {
  let testStore: TestStore;
  let store: Store;
  let file: string;
  /** Kept across each test's token changes, as a serving process keeps them. */
  let subjects: SubjectCache;

  beforeEach(async () => {
    testStore = await createTestStore();
    store = await openStore(testStore);
    await migrate(store);
    file = path.join(testStore.dataDir, ADMIN_TOKEN_FILE);
    subjects = new SubjectCache(store);
  });
  afterEach(async () => {
    await store.close();
    await testStore.dispose();
  });

  const isAdmin = async (secret: string) => (await subjects.authenticate(secret))?.kind === 'site-admin';

  it('is generated on first start into a file only its owner reads, and kept on the next', async () => {
    const first = await ensureAdminToken(store, undefined, testStore.dataDir);
    assert.equal(first.source, 'generated');
    assert.equal(first.file, file);
    const secret = fs.readFileSync(file, 'utf8').trim();
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.ok(await isAdmin(secret));
    assert.deepEqual(await ensureAdminToken(store, undefined, testStore.dataDir), { source: 'existing', file });
    assert.equal(fs.readFileSync(file, 'utf8').trim(), secret);
  });

  it('once one is configured, revokes the generated one and removes its file', async () => {
    await ensureAdminToken(store, undefined, testStore.dataDir);
    const generated = fs.readFileSync(file, 'utf8').trim();
    assert.deepEqual(await ensureAdminToken(store, CONFIGURED, testStore.dataDir), {
      source: 'configured',
      revokedGenerated: true,
      removedFile: file,
    });
    assert.ok(!fs.existsSync(file));
    assert.equal(await isAdmin(generated), false);
    assert.ok(await isAdmin(CONFIGURED));
    // Configuring another value replaces the first; nothing is generated again.
    const other = `${CONFIGURED}-2`;
    assert.deepEqual(await ensureAdminToken(store, other, testStore.dataDir), {
      source: 'configured',
      revokedGenerated: false,
      removedFile: undefined,
    });
    assert.equal(await isAdmin(CONFIGURED), false);
    assert.ok(await isAdmin(other));
  });

  it('keeps the generated token and its file when the configured value is that token', async () => {
    await ensureAdminToken(store, undefined, testStore.dataDir);
    const generated = fs.readFileSync(file, 'utf8').trim();
    assert.deepEqual(await ensureAdminToken(store, generated, testStore.dataDir), {
      source: 'configured',
      revokedGenerated: false,
      removedFile: undefined,
    });
    assert.ok(fs.existsSync(file));
    assert.ok(await isAdmin(generated));
  });

  it('leaves a token file alone that holds no token it revoked', async () => {
    await ensureAdminToken(store, undefined, testStore.dataDir);
    fs.writeFileSync(file, 'a token of another store\n');
    assert.deepEqual(await ensureAdminToken(store, CONFIGURED, testStore.dataDir), {
      source: 'configured',
      revokedGenerated: true,
      removedFile: undefined,
    });
    assert.equal(fs.readFileSync(file, 'utf8'), 'a token of another store\n');
  });
  it('revokes only site-admin tokens, whatever description a team token was given', async () => {
    await ensureAdminToken(store, undefined, testStore.dataDir);
    const app = await buildApp({ store });
    try {
      const admin = { authorization: `Bearer ${fs.readFileSync(file, 'utf8').trim()}` };
      const post = async (url: string, data: unknown) => {
        const res = await app.inject({ method: 'POST', url, headers: admin, payload: { data } });
        assert.ok(res.statusCode < 300, res.body);
        return res.json().data;
      };
      await post('/api/v2/organizations', {
        type: 'organizations',
        attributes: { name: 'described', email: 'd@example.com' },
      });
      const teamSecrets: string[] = [];
      for (const description of [
        'site-admin token generated on first start',
        'site-admin token from VARSETD_ADMIN_TOKEN',
      ]) {
        const team = await post('/api/v2/organizations/described/teams', {
          type: 'teams',
          attributes: { name: `t${teamSecrets.length}` },
        });
        teamSecrets.push(
          (
            await post(`/api/v2/teams/${team.id}/authentication-token`, {
              type: 'authentication-tokens',
              attributes: { description },
            })
          ).attributes.token,
        );
      }
      await ensureAdminToken(store, CONFIGURED, testStore.dataDir);
      await ensureAdminToken(store, `${CONFIGURED}-next`, testStore.dataDir);
      for (const secret of teamSecrets) assert.equal((await subjects.authenticate(secret))?.kind, 'team');
    } finally {
      await app.close();
    }
  });
});
