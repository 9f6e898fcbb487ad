import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openStore } from '../src/db/connect.js';
import { ROOT, varsetdEnv } from './support/processes.js';
import { createTestStore, storeKind } from './support/store.js';

const run = promisify(execFile);

/**
 * Any number of processes may start together on a fresh store: they take turns migrating and
 * settling the admin token and the encryption key, and every one of them starts.
 */
describe(`processes starting together on a fresh store (${storeKind})`, () => {
  const PROCESSES = 6;

  for (const round of [1, 2, 3]) {
    it(`readies one store from ${PROCESSES} processes at the same moment, generating one admin token and one key (round ${round})`, async () => {
      const store = await createTestStore();
      try {
        // Neither an admin token nor an encryption key is configured: both are generated.
        const env = varsetdEnv(store);
        // Every process waits for the same moment, late enough for all of them to have loaded.
        const startAt = String(Date.now() + 4_000);
        const results = await Promise.allSettled(
          Array.from({ length: PROCESSES }, () =>
            run(process.execPath, ['--import', 'tsx', 'test/support/start-together.ts', startAt], { cwd: ROOT, env }),
          ),
        );
        const failures = results.flatMap((r) =>
          r.status === 'rejected' ? [String((r.reason as { stderr?: string }).stderr ?? r.reason)] : [],
        );
        assert.deepEqual(failures, []);
        const printed = results.flatMap((r) => (r.status === 'fulfilled' ? [JSON.parse(r.value.stdout)] : []));
        assert.equal(printed.filter((p) => p.generated === true).length, 1);
        assert.equal(printed.filter((p) => p.generatedKey === true).length, 1);

        const opened = await openStore(store);
        try {
          const admins = await opened.db.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').execute();
          assert.equal(admins.length, 1);
        } finally {
          await opened.close();
        }
        if (storeKind === 'sqlite') {
          assert.equal(fs.statSync(store.dataDir).mode & 0o777, 0o700);
          for (const file of fs.readdirSync(store.dataDir))
            assert.equal(fs.statSync(path.join(store.dataDir, file)).mode & 0o777, 0o600, file);
        }
      } finally {
        await store.dispose();
      }
    });
  }
});
