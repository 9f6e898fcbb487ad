import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TestApp } from './support/app.js';
import { createOrganization } from './support/factories/organizations.js';
import {
  createVar,
  createVarset,
  expectRejected,
  postVar,
  postVarset,
  varsetBody,
} from './support/factories/varsets.js';
import { expectStatus, errorOf, type Client } from './support/requests.js';
import { storeKind } from './support/store.js';
import {
  raceAddSameKey,
  raceCreateGlobalSets,
  raceFlipGlobal,
  raceRenameIntoSameKey,
} from './support/varsets-races.js';

describe(`the global rule (${storeKind})`, () => {
  let t: TestApp;
  before(async () => {
    t = await TestApp.start();
  });
  after(async () => t.close());

  const CONFLICT = (key: string, category: string, set: string) =>
    `Variable "${key}" (${category}) conflicts with the global variable set "${set}": global variable sets of an organization cannot share a key and category`;

  it('refuses a global set whose variables clash with another global set, naming key, category and set', async () => {
    const org = await t.createOrganization();
    await createVarset(t, org, {
      attributes: { name: 'first', global: true },
      vars: [{ key: 'region', category: 'env' }],
    });
    const res = await expectRejected(t, org, 422, () =>
      postVarset(t, org, {
        attributes: { name: 'second', global: true },
        vars: [{ key: 'other' }, { key: 'region', category: 'env' }],
      }),
    );
    assert.equal(errorOf(res).detail, CONFLICT('region', 'env', 'first'));
    assert.equal(errorOf(res).source?.pointer, '/data/relationships/vars/data/1/attributes/key');
  });

  it('allows the same key in another category, in a non-global set and in another organization', async () => {
    const org = await t.createOrganization();
    await createVarset(t, org, { attributes: { global: true }, vars: [{ key: 'k', category: 'env' }] });
    await createVarset(t, org, { attributes: { global: true }, vars: [{ key: 'k', category: 'terraform' }] });
    await createVarset(t, org, { vars: [{ key: 'k', category: 'env' }] });
    const other = await t.createOrganization();
    await createVarset(t, other, { attributes: { global: true }, vars: [{ key: 'k', category: 'env' }] });
  });

  it('refuses switching global on when a variable clashes, and accepts it when none does', async () => {
    const org = await t.createOrganization();
    await createVarset(t, org, { attributes: { name: 'owner', global: true }, vars: [{ key: 'shared' }] });
    const candidate = await createVarset(t, org, {
      attributes: { name: 'candidate' },
      vars: [{ key: 'mine' }, { key: 'shared' }],
    });
    const res = await expectRejected(t, org, 422, () =>
      t.patch(`/api/v2/varsets/${candidate.id}`, varsetBody({ attributes: { global: true, description: 'changed' } })),
    );
    assert.equal(errorOf(res).detail, CONFLICT('shared', 'terraform', 'owner'));
    assert.equal(errorOf(res).source?.pointer, '/data/attributes/global');
    const clean = await createVarset(t, org, { vars: [{ key: 'mine' }] });
    const flipped = await t.patch(`/api/v2/varsets/${clean.id}`, varsetBody({ attributes: { global: true } }));
    expectStatus(flipped, 200);
    assert.equal(flipped.body.data.attributes.global, true);
  });

  it('refuses variables added in the body of an update to a global set when they clash', async () => {
    const org = await t.createOrganization();
    await createVarset(t, org, { attributes: { name: 'holder', global: true }, vars: [{ key: 'taken' }] });
    const set = await createVarset(t, org, { attributes: { global: true } });
    const res = await expectRejected(t, org, 422, () =>
      t.patch(`/api/v2/varsets/${set.id}`, varsetBody({ vars: [{ key: 'free' }, { key: 'taken' }] })),
    );
    assert.equal(errorOf(res).detail, CONFLICT('taken', 'terraform', 'holder'));
    const unflipped = await createVarset(t, org);
    await expectRejected(t, org, 422, () =>
      t.patch(
        `/api/v2/varsets/${unflipped.id}`,
        varsetBody({ attributes: { global: true }, vars: [{ key: 'taken' }] }),
      ),
    );
  });

  it('refuses adding or updating a variable of a global set into a clash', async () => {
    const org = await t.createOrganization();
    await createVarset(t, org, { attributes: { name: 'base', global: true }, vars: [{ key: 'A', category: 'env' }] });
    const set = await createVarset(t, org, { attributes: { global: true } });
    const added = await expectRejected(t, org, 422, () => postVar(t, set.id, { key: 'A', category: 'env' }));
    assert.equal(errorOf(added).detail, CONFLICT('A', 'env', 'base'));
    assert.equal(errorOf(added).source?.pointer, '/data/attributes/key');
    const v = await createVar(t, set.id, { key: 'B', category: 'env' });
    const renamed = await expectRejected(t, org, 422, () =>
      t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${v.id}`, {
        data: { type: 'vars', attributes: { key: 'A' } },
      }),
    );
    assert.equal(errorOf(renamed).detail, CONFLICT('A', 'env', 'base'));
    const v2 = await createVar(t, set.id, { key: 'A', category: 'terraform' });
    const recategorized = await expectRejected(t, org, 422, () =>
      t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${v2.id}`, {
        data: { type: 'vars', attributes: { category: 'env' } },
      }),
    );
    assert.equal(errorOf(recategorized).source?.pointer, '/data/attributes/category');
    // Changing only the value of a variable of a global set is no clash.
    expectStatus(
      await t.patch(`/api/v2/varsets/${set.id}/relationships/vars/${v.id}`, {
        data: { type: 'vars', attributes: { value: 'new' } },
      }),
      200,
    );
  });

  it('follows global switched off and on again', async () => {
    const org = await t.createOrganization();
    const first = await createVarset(t, org, {
      attributes: { name: 'first', global: true },
      vars: [{ key: 'moving' }],
    });
    const second = await createVarset(t, org, { attributes: { name: 'second', global: true } });
    await expectRejected(t, org, 422, () => postVar(t, second.id, { key: 'moving' }));
    expectStatus(await t.patch(`/api/v2/varsets/${first.id}`, varsetBody({ attributes: { global: false } })), 200);
    await createVar(t, second.id, { key: 'moving' });
    const res = await expectRejected(t, org, 422, () =>
      t.patch(`/api/v2/varsets/${first.id}`, varsetBody({ attributes: { global: true } })),
    );
    assert.equal(errorOf(res).detail, CONFLICT('moving', 'terraform', 'second'));
    // A deleted global set frees its keys.
    expectStatus(await t.delete(`/api/v2/varsets/${second.id}`), 204);
    expectStatus(await t.patch(`/api/v2/varsets/${first.id}`, varsetBody({ attributes: { global: true } })), 200);
  });

  describe('under concurrency, in process', () => {
    const N = 12;
    it('lets exactly one of many concurrent global set creations with the same variable win', async () => {
      await raceCreateGlobalSets([t], await t.createOrganization(), N);
    });
    it('lets exactly one of many concurrent additions of one key to different global sets win', async () => {
      await raceAddSameKey([t], await t.createOrganization(), N);
    });
    it('lets exactly one of many sets holding the same variable become global', async () => {
      await raceFlipGlobal([t], await t.createOrganization(), N);
    });
    it('lets exactly one of many concurrent renames into the same key win', async () => {
      await raceRenameIntoSameKey([t], await t.createOrganization(), N);
    });
  });

  describe('without the organization lock, the unique index still holds the rule with the same 422', () => {
    let unlocked: TestApp;
    let c: Client;
    before(async () => {
      unlocked = await TestApp.start({}, (store) => ({ ...store, lockOrganization: async () => undefined }));
      c = unlocked;
    });
    after(async () => unlocked.close());

    const N = 8;
    it('creations', async () => raceCreateGlobalSets([c], await createOrganization(c), N));
    it('additions', async () => raceAddSameKey([c], await createOrganization(c), N));
    it('switching global on', async () => raceFlipGlobal([c], await createOrganization(c), N));
    it('renames', async () => raceRenameIntoSameKey([c], await createOrganization(c), N));
  });
});
