import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/connect.js';
import { prepareStore } from '../../src/cli/startup.js';

/**
 * One of several processes readying the same fresh store at the same moment (see
 * startup.test.ts): waits until the time given as its argument, then opens the store and does what
 * `varsetd serve` does before it listens, and prints whether it generated the admin token and the key.
 */
const startAt = Number(process.argv[2]);
const config = loadConfig(process.env, []);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
const store = await openStore(config);
try {
  const { adminToken, key } = await prepareStore(store, config);
  console.log(JSON.stringify({ generated: adminToken.source === 'generated', generatedKey: key.generated }));
} finally {
  await store.close();
}
