import { EXEC_USAGE, runExec } from '../exec/command.js';
import * as backup from './backup.js';
import * as exportCommand from './export.js';
import * as importCommand from './import.js';
import * as identityKeys from './identity-keys.js';
import * as keys from './keys.js';
import * as migrate from './migrate.js';
import * as organizations from './organizations.js';
import * as restore from './restore-command.js';
import * as rotateKey from './rotate-key.js';
import * as serve from './serve.js';
import * as tokens from './tokens.js';

/**
 * A command of `varsetd`: its help (what `varsetd COMMAND --help` prints) and what runs it with
 * the arguments after its name, resolving to the exit code (-1: the process keeps running).
 */
export interface Command {
  help: string;
  run(args: string[]): Promise<number>;
}

/**
 * Every command, by name: main.ts dispatches through this table only. Each command lives in a
 * file of its own under src/cli that exports `HELP` and `run`; adding one is a line here (and
 * one in the global help, src/cli/usage.ts).
 */
export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: { help: serve.HELP, run: serve.run },
  migrate: { help: migrate.HELP, run: migrate.run },
  'rotate-key': { help: rotateKey.HELP, run: (args) => rotateKey.runRotateKey(args, process.env) },
  keys: { help: keys.HELP, run: (args) => keys.runKeys(args, process.env) },
  'identity-keys': { help: identityKeys.HELP, run: identityKeys.run },
  tokens: { help: tokens.HELP, run: tokens.run },
  organizations: { help: organizations.HELP, run: organizations.run },
  import: { help: importCommand.HELP, run: importCommand.run },
  export: { help: exportCommand.HELP, run: exportCommand.run },
  backup: { help: backup.HELP, run: backup.run },
  restore: { help: restore.HELP, run: restore.run },
  // exec is a client of the API (src/exec), with options of its own.
  exec: { help: EXEC_USAGE, run: (args) => runExec(args, process.env) },
};
