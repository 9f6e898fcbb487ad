import { SETTINGS } from '../config.js';

const COLUMN = 34;
const row = (left: string, text: string) => `  ${left.padEnd(COLUMN - 2)}${text}`;

/** `varsetd --help`: every command and every setting, the latter straight from config.ts so that none is left out. */
export function usage(): string {
  return [
    'usage: varsetd [serve | migrate | rotate-key [--new-key KEY | --reseal] | keys list | keys retire KEY_ID] [options]',
    '       varsetd exec --workspace ORG/WORKSPACE [...] -- COMMAND [ARGS...]',
    '       varsetd --help | --version',
    '',
    'commands:',
    row('serve', 'run migrations, then serve the API (the default)'),
    row('migrate', 'run migrations and exit'),
    row('rotate-key [--new-key KEY]', 'add a new active key to the keyring (generated when --new-key is'),
    row('', 'omitted) and re-seal every value with it in batches, while serving'),
    row('rotate-key --reseal', 're-seal with the active key every value another key sealed'),
    row('keys list', "the keyring's keys, their state and how many values each seals"),
    row('keys retire KEY_ID', 'mark a key retired once no stored value uses it'),
    row('exec', "run COMMAND with a run's variables (varsetd exec --help)"),
    '',
    'options, each also read from the environment variable in brackets (a flag wins; defaults in parentheses):',
    ...SETTINGS.map((s) => row(`${s.flag} ${s.value}`, `[${s.env}] ${s.help}`)),
    row('--help, -h', 'show this help'),
    row('--version', "print varsetd's version"),
  ].join('\n');
}
