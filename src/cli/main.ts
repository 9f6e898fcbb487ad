import { ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands.js';
import { usage } from './usage.js';

/**
 * `varsetd [COMMAND] [ARGS...]`: the command named first (serve when none is), through the one
 * table of src/cli/commands.ts. `--help` (or `-h`) after a command prints that command's help;
 * before any, or alone, the global one. Arguments after `--` are never varsetd's (exec's COMMAND).
 */
async function main(argv: string[]): Promise<number> {
  // src/main.ts has refused an unsupported Node.js before loading this.
  if (argv[0] === 'help') {
    console.log(argv[1] === undefined ? usage() : commandNamed(argv[1]).help);
    return 0;
  }
  const name = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : undefined;
  const args = name === undefined ? argv : argv.slice(1);
  const command = commandNamed(name ?? 'serve');
  const separator = args.indexOf('--');
  const own = separator === -1 ? args : args.slice(0, separator);
  if (own.includes('--help') || own.includes('-h')) {
    console.log(name === undefined ? usage() : command.help);
    return 0;
  }
  if (own.includes('--version')) {
    console.log(`varsetd ${VERSION}`);
    return 0;
  }
  return command.run(args);
}

function commandNamed(name: string) {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new ConfigError(`unknown command ${name}`);
  return command;
}

/**
 * Resolves once everything written to stdout has been handed to the system: to a pipe, writes
 * are asynchronous, and process.exit would cut a long report (import --json, export) short.
 */
const stdoutDrained = () => new Promise<void>((resolve) => process.stdout.write('', () => resolve()));

main(process.argv.slice(2)).then(
  async (code) => {
    if (code < 0) return;
    await stdoutDrained();
    process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(`varsetd: ${error.message}\n(varsetd --help lists every command and option)`);
      process.exit(2);
    }
    const message = error instanceof Error ? error.message : String(error);
    const hint =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? ' (another program listens there: choose another port with PORT or --port)'
        : '';
    console.error(`varsetd: failed to start: ${message}${hint}`);
    process.exit(1);
  },
);
