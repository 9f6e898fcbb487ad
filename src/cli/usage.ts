import { SETTINGS } from '../config.js';

const COLUMN = 34;
const row = (left: string, text: string) => `  ${left.padEnd(COLUMN - 2)}${text}`;

/** `varsetd --help`: every command and every setting, the latter straight from config.ts so that none is left out. */
export function usage(): string {
  return [
    'usage: varsetd [serve | migrate | rotate-key [--new-key KEY]] [options]',
    '       varsetd exec --workspace ORG/WORKSPACE [...] -- COMMAND [ARGS...]',
    '       varsetd --help | --version',
    '',
    'commands:',
    row('serve', 'run migrations, then serve the API (the default)'),
    row('migrate', 'run migrations and exit'),
    row('rotate-key [--new-key KEY]', 're-encrypt every sealed value with a new key (generated when'),
    row('', '--new-key is omitted) in one transaction; stop every varsetd serving'),
    row('', 'the store first'),
    row('exec', "run COMMAND with a run's variables (varsetd exec --help)"),
    '',
    'options, each also read from the environment variable in brackets (a flag wins; defaults in parentheses):',
    ...SETTINGS.map((s) => row(`${s.flag} ${s.value}`, `[${s.env}] ${s.help}`)),
    row('--help, -h', 'show this help'),
    row('--version', "print varsetd's version"),
  ].join('\n');
}
