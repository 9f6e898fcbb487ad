import { ConfigError, loadConfig } from '../config.js';
import { migrate, type Store } from '../db/connect.js';
import { openReachableStore } from './store-connection.js';
import { forgetKeyInUse, loadKeyring, type LoadedKeyring } from '../secrets/key.js';
import { formatKeyring, writeKeyringFile } from '../secrets/keyring-file.js';
import { countSealedValues, UNOPENED_V1 } from '../secrets/reseal.js';

export const HELP = `usage: varsetd keys list [options]
       varsetd keys retire KEY_ID [options]

list     every key of the keyring: its id, its state (active: seals; open: opens only;
         retired: kept for older backups) and how many stored values it seals
retire   marks a key retired, once no stored value uses it: in the key file, or (with
         VARSETD_ENCRYPTION_KEY) by printing the keyring to set. A retired key still opens the
         values of backups taken before it was retired: keep it as long as those backups.

options: the store's settings, as for serve (varsetd --help)`;

/** `varsetd keys list | retire KEY_ID`. */
export async function runKeys(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'list') return withKeyring(loadConfig(env, rest), listKeys);
  if (action === 'retire') {
    const [id, ...settings] = rest;
    if (id === undefined || id.startsWith('-'))
      throw new ConfigError('varsetd keys retire needs the id of the key to retire (varsetd keys list shows them)');
    return withKeyring(loadConfig(env, settings), (store, loaded) => retireKey(store, loaded, id));
  }
  throw new ConfigError(
    action === undefined ? 'varsetd keys needs list or retire' : `unknown keys command ${action}: list or retire`,
  );
}

async function withKeyring(
  config: ReturnType<typeof loadConfig>,
  work: (store: Store, loaded: LoadedKeyring) => Promise<number>,
): Promise<number> {
  const store = await openReachableStore(config);
  try {
    await migrate(store);
    const loaded = await store.exclusively(() => loadKeyring(store, config));
    return await work(store, loaded);
  } finally {
    await store.close();
  }
}

async function listKeys(store: Store, { keyring }: LoadedKeyring): Promise<number> {
  const counts = await countSealedValues(store.db, keyring);
  const rows = keyring.keys.map((k) => [
    k.id,
    k === keyring.active ? 'active' : k.retired ? 'retired' : 'open',
    String(counts.get(k.id) ?? 0),
  ]);
  console.log(
    [
      'KEY ID'.padEnd(19) + 'STATE'.padEnd(9) + 'VALUES',
      ...rows.map(([id, state, count]) => `${id!.padEnd(19)}${state!.padEnd(9)}${count}`),
    ].join('\n'),
  );
  for (const retired of keyring.keys.filter((k) => k.retired && (counts.get(k.id) ?? 0) > 0)) {
    console.error(
      `varsetd: the retired key ${retired.id} seals values again (a varsetd not reloaded since it was retired): send SIGHUP to every varsetd, then run varsetd rotate-key --reseal`,
    );
  }
  const unopened = counts.get(UNOPENED_V1) ?? 0;
  if (unopened > 0) console.log(`varsetd: ${unopened} values sealed before the keyring open with no key of it`);
  return 0;
}

async function retireKey(store: Store, loaded: LoadedKeyring, id: string): Promise<number> {
  const { keyring } = loaded;
  const key = keyring.keys.find((k) => k.id === id);
  if (!key) return refuse(`the keyring holds no key ${id} (varsetd keys list shows them)`);
  if (key === keyring.active)
    return refuse(`${id} is the active key, which seals new values: add another first (varsetd rotate-key)`);
  const uses = (await countSealedValues(store.db, keyring)).get(id) ?? 0;
  if (uses > 0) {
    return refuse(
      `${id} still seals ${uses} stored value${uses === 1 ? '' : 's'}: send SIGHUP to every varsetd (or restart it), run varsetd rotate-key --reseal, then retire it`,
    );
  }
  await forgetKeyInUse(store, keyring, id);
  const keys = keyring.keys.map((k) => (k.id === id ? { ...k, retired: true } : k));
  if (loaded.source === 'configured') {
    console.log(
      `varsetd: no stored value uses ${id}; set VARSETD_ENCRYPTION_KEY on every varsetd to the keyring with it marked retired:`,
    );
    console.log(formatKeyring(keys, ','));
    return 0;
  }
  writeKeyringFile(loaded.file, keys, { replacing: keyring.keys });
  keyring.replace(keys);
  console.log(`varsetd: retired ${id} in ${loaded.file}; keep it there as long as you keep backups taken before now`);
  return 0;
}

function refuse(message: string): number {
  console.error(`varsetd: ${message}`);
  return 1;
}
