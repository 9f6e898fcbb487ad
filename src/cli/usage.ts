import { SETTINGS, type Setting } from '../config.js';

const COLUMN = 34;
export const row = (left: string, text: string) => `  ${left.padEnd(COLUMN - 2)}${text}`;

/** The rows of these settings in a help: flag, value, environment variable and what it does. */
export function settingRows(settings: readonly Setting[]): string[] {
  return settings.map((s) => row(`${s.flag} ${s.value}`, `[${s.env}] ${s.help}`));
}

/** The settings that say which store a command works on and how it reaches it. */
const STORE_KEYS: readonly Setting['key'][] = [
  'dataDir',
  'databaseUrl',
  'dbStatementTimeoutMs',
  'dbConnectTimeoutMs',
  'dbPoolSize',
];
export const STORE_SETTINGS: readonly Setting[] = SETTINGS.filter((s) => STORE_KEYS.includes(s.key));

/** The options part of a command's help that works on the store directly. */
export function storeOptions(): string[] {
  return [
    'store options, each also read from the environment variable in brackets (a flag wins), as serve takes them:',
    ...settingRows(STORE_SETTINGS),
    row('--help, -h', 'show this help'),
  ];
}

/** `varsetd --help`: every command and every setting, the latter straight from config.ts so that none is left out. */
export function usage(): string {
  return [
    'usage: varsetd [serve | migrate | rotate-key [--new-key KEY | --reseal] | keys list | keys retire KEY_ID] [options]',
    '       varsetd identity-keys list | identity-keys rotate [--lead SECONDS] [options]',
    '       varsetd tokens | organizations SUBCOMMAND [...] [options]',
    '       varsetd export --organization ORG [...] | import --from URL|DIR --organization SOURCE [...] [options]',
    '       varsetd backup --to FILE | backup verify FILE | restore --from FILE [...] [options]',
    '       varsetd exec --workspace ORG/WORKSPACE [...] -- COMMAND [ARGS...]',
    '       varsetd COMMAND --help | varsetd --help | --version',
    '',
    'commands:',
    row('serve', 'run migrations, then serve the API (the default)'),
    row('migrate', 'run migrations and exit'),
    row('rotate-key [--new-key KEY]', 'add a new active key to the keyring (generated when --new-key is'),
    row('', 'omitted) and re-seal every value with it in batches, while serving'),
    row('rotate-key --reseal', 're-seal with the active key every value another key sealed'),
    row('keys list', "the keyring's keys, their state and how many values each seals"),
    row('keys retire KEY_ID', 'mark a key retired once no stored value uses it'),
    row('identity-keys list', 'the keys signing workload identity tokens, published and next'),
    row('identity-keys rotate', 'publish a new signing key, used after --lead SECONDS (3600)'),
    row('tokens create|list|revoke', 'create, list and revoke site-admin, organization and team tokens'),
    row('', 'on the store directly, with no token (varsetd tokens --help)'),
    row('organizations create|list', 'create and list organizations on the store directly'),
    row('', '(varsetd organizations --help)'),
    row('export --organization ORG', "write an organization's sets as JSON documents or tfe configuration"),
    row('', '(varsetd export --help)'),
    row('import --from URL|DIR', "bring an organization's sets in from HCP Terraform, another varsetd"),
    row('', 'or an export (varsetd import --help)'),
    row('backup --to FILE [--force]', 'write a consistent backup of the store while it serves (mode 0600)'),
    row('backup verify FILE', "check a backup's integrity and that the keys open its sealed values"),
    row('restore --from FILE [--force]', 'replace the store with a backup, all or nothing; stop every'),
    row('', 'varsetd serving the store first'),
    row('exec', "run COMMAND with a run's variables (varsetd exec --help)"),
    '',
    'options, each also read from the environment variable in brackets (a flag wins; defaults in parentheses):',
    ...settingRows(SETTINGS),
    row('--help, -h', "show this help; after a command, that command's own"),
    row('--version', "print varsetd's version"),
  ].join('\n');
}
