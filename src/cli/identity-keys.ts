import { ConfigError, loadConfig } from '../config.js';
import { migrate } from '../db/connect.js';
import { loadKeyring } from '../secrets/key.js';
import { listSigningKeys, rotateSigningKey } from '../workload-identity/service.js';
import { openReachableStore } from './store-connection.js';

export const HELP = `usage: varsetd identity-keys list [options]
       varsetd identity-keys rotate [--lead SECONDS] [options]

The keys varsetd signs runs' workload identity tokens with (docs/workload-identity.md).
list     every published key: its id, its state (signing; next: published, signs from the
         time shown; previous: signs no more, published until its tokens have expired)
rotate   a new key, published at once and signing --lead seconds from now (3600: longer than
         relying parties keep the key set); the signing key stops then, and stays published
         for VARSETD_WORKLOAD_IDENTITY_TOKEN_TTL more

options: the store's settings, as for serve (varsetd --help)`;

const DEFAULT_LEAD_S = 3600;

/** `varsetd identity-keys list | rotate [--lead SECONDS]`. */
export async function run(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'list' && action !== 'rotate')
    throw new ConfigError(
      action === undefined
        ? 'varsetd identity-keys needs list or rotate'
        : `unknown identity-keys command ${action}: list or rotate`,
    );
  const { leadS, settings } = action === 'rotate' ? takeLead(rest) : { leadS: DEFAULT_LEAD_S, settings: rest };
  const config = loadConfig(process.env, settings);
  const store = await openReachableStore(config);
  try {
    await migrate(store);
    const { keyring } = await store.exclusively(() => loadKeyring(store, config));
    if (action === 'rotate') {
      const key = await rotateSigningKey(store, keyring, leadS * 1000, config.workloadIdentityTokenTtlMs);
      console.log(`varsetd: ${key.id} is published now and signs from ${key.signsFrom}`);
      return 0;
    }
    const at = new Date().toISOString();
    const keys = await listSigningKeys(store.db);
    console.log(
      [
        'KEY ID'.padEnd(45) + 'STATE'.padEnd(10) + 'SIGNS FROM'.padEnd(26) + 'PUBLISHED UNTIL',
        ...keys.map((k) => {
          const state =
            k.signsFrom > at ? 'next' : k.signsUntil !== null && k.signsUntil <= at ? 'previous' : 'signing';
          return `${k.id.padEnd(45)}${state.padEnd(10)}${k.signsFrom.padEnd(26)}${k.publishedUntil ?? '-'}`;
        }),
      ].join('\n'),
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** `--lead SECONDS` or `--lead=SECONDS`, and the other arguments. */
function takeLead(args: string[]): { leadS: number; settings: string[] } {
  const settings = [...args];
  const at = settings.findIndex((arg) => arg === '--lead' || arg.startsWith('--lead='));
  if (at === -1) return { leadS: DEFAULT_LEAD_S, settings };
  const inline = settings[at]!.startsWith('--lead=');
  const text = inline ? settings[at]!.slice('--lead='.length) : settings[at + 1];
  settings.splice(at, inline ? 1 : 2);
  if (text === undefined || !/^\d+$/.test(text))
    throw new ConfigError(`--lead takes a whole number of seconds, got ${text ?? 'nothing'}`);
  return { leadS: Number(text), settings };
}
