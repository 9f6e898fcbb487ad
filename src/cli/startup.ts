import { ensureAdminToken, type AdminTokenOutcome } from '../auth/tokens.js';
import type { Config } from '../config.js';
import { migrate, type Store } from '../db/connect.js';
import { loadKeyring, type LoadedKeyring } from '../secrets/key.js';

/** What readying a store did, for the start-up summary. */
export interface PreparedStore {
  /** The migrations this start applied (empty when the schema was up to date). */
  appliedMigrations: string[];
  adminToken: AdminTokenOutcome;
  key: LoadedKeyring;
}

/**
 * Readies a store for serving: runs the migrations, settles the admin token and loads the
 * keyring. Several processes may start at once on one store: they take turns.
 */
export async function prepareStore(
  store: Store,
  config: Pick<Config, 'adminToken' | 'dataDir' | 'encryptionKeys'>,
): Promise<PreparedStore> {
  return store.exclusively(async () => {
    const appliedMigrations = await migrate(store);
    const adminToken = await ensureAdminToken(store, config.adminToken, config.dataDir);
    const key = await loadKeyring(store, config);
    return { appliedMigrations, adminToken, key };
  });
}
