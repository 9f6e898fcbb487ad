import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runVarsetd, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind } from './support/store.js';

/** `varsetd identity-keys`: the workload identity signing keys, on the store directly. */
describe(`varsetd identity-keys (${storeKind})`, () => {
  it('rotates to a key published at once and signing after --lead, lists the keys by state, and refuses a bad lead', async () => {
    const testStore = await createTestStore();
    try {
      const env = varsetdEnv(testStore, { VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL: '600' });
      const rows = async () =>
        (await runVarsetd(['identity-keys', 'list'], env)).stdout
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => line.split(/\s+/));
      const first = await runVarsetd(['identity-keys', 'rotate', '--lead', '0'], env);
      assert.equal(first.code, 0, first.stderr);
      const second = await runVarsetd(['identity-keys', 'rotate', '--lead=3600'], env);
      assert.equal(second.code, 0, second.stderr);
      const listed = await rows();
      assert.deepEqual(
        listed.map((row) => row[1]),
        ['signing', 'next'],
      );
      const [signing, next] = listed as [string[], string[]];
      assert.match(second.stdout, new RegExp(`${next[0]} is published now and signs from ${next[2]}`));
      assert.equal(
        Date.parse(signing[3]!) - Date.parse(next[2]!),
        600_000,
        'the signing key stays published a token lifetime after the next one takes over',
      );
      const bad = await runVarsetd(['identity-keys', 'rotate', '--lead', 'soon'], env);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--lead takes a whole number of seconds, got soon/);
    } finally {
      await testStore.dispose();
    }
  });
});
