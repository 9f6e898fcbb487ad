import { ensureAdminToken } from './auth/tokens.js';
import type { Config } from './config.js';
import { migrate, type Store } from './db/connect.js';
import { loadSealer } from './secrets/key.js';
import type { Sealer } from './secrets/sealer.js';

/**
 * Readies a store for serving: runs the migrations, settles the admin token and loads the
 * encryption key. Several processes may start at once on one store: they take turns.
 * Returns the sealer, and the admin token when one was generated (to be shown once).
 */
export async function prepareStore(store: Store, config: Pick<Config, 'adminToken' | 'dataDir' | 'encryptionKey'>): Promise<{ sealer: Sealer; generatedToken: string | undefined }> {
  return store.exclusively(async () => {
    await migrate(store);
    const adminToken = await ensureAdminToken(store, config.adminToken, config.dataDir);
    const { sealer } = await loadSealer(store, { configuredKey: config.encryptionKey, dataDir: config.dataDir });
    return { sealer, generatedToken: adminToken.source === 'generated' ? adminToken.secret : undefined };
  });
}
