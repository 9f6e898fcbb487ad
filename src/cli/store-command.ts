import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { DomainError, NotFound } from '../common/errors.js';
import { ConfigError, loadConfig, SETTINGS } from '../config.js';
import type { Context } from '../auth/context.js';
import { commandLineSubject } from '../auth/subject.js';
import { everyPage } from '../common/page.js';
import { migrate } from '../db/connect.js';
import { openReachableStore } from './store-connection.js';
import { subscribeFeatures } from '../subscribers.js';
import { loadKeyring } from '../secrets/key.js';
import type { Sealer } from '../secrets/sealer.js';

/**
 * What the commands that work on the store directly share (`varsetd tokens`, `varsetd
 * organizations`): their options, the store they open as `serve` does, the context they call
 * the API's own services with, and how they end.
 */

/** Input the command refuses: one line on stderr, exit code 2. */
export class UsageError extends Error {}

/** A command's arguments: its own options by name, its positional arguments, and the store settings, as loadConfig takes them. */
export interface CommandArgs {
  /** The options given with a value, by name (the last one given wins). */
  options: Record<string, string | undefined>;
  /** The options given that take none. */
  flags: Set<string>;
  positionals: string[];
  settings: string[];
}

/** Reads `args`: `own` are the command's options (a string takes a value, a boolean none); every setting of `varsetd serve` is taken too. */
export function readArgs(args: readonly string[], own: Record<string, 'string' | 'boolean'>): CommandArgs {
  const settingFlags = new Set(SETTINGS.map((s) => s.flag));
  const options = Object.fromEntries<{ type: 'string' | 'boolean' }>([
    ...Object.entries(own).map(([name, type]) => [name, { type }] as const),
    ...[...settingFlags].map((flag) => [flag.slice(2), { type: 'string' as const }] as const),
  ]);
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const read: CommandArgs = { options: {}, flags: new Set(), positionals: [], settings: [] };
  for (const token of tokens) {
    if (token.kind === 'positional') read.positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const written = args[token.index]!.split('=')[0]!;
    if (token.rawName !== `--${token.name}`) throw new UsageError(`unknown option ${written}`);
    if (settingFlags.has(token.rawName)) {
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
      read.settings.push(`${token.rawName}=${token.value}`);
      continue;
    }
    const type = own[token.name];
    if (type === undefined) throw new UsageError(`unknown option ${written}`);
    if (type === 'string' && token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
    if (type === 'boolean' && token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
    if (token.value === undefined) read.flags.add(token.name);
    else read.options[token.name] = token.value;
  }
  return read;
}

/** The operating-system user running the command, as the audit trail names it. */
function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    // A process may run under a user id that has no name (a container).
    return process.env.USER ?? `uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/** Most commands seal nothing (no token, organization or listing they make holds a sensitive value). */
const NO_SEALER: Sealer = {
  seal: () => {
    throw new Error('the command line seals no value');
  },
  open: () => {
    throw new Error('the command line opens no sealed value');
  },
};

/**
 * Opens the store the settings name, as `serve` does (DATABASE_URL, else the SQLite file in the
 * data folder), runs the migrations it lacks as `migrate` does, and runs `work` as the command
 * line: the site administrator, whom no organization refuses, recorded in the audit trail as
 * the command line and the user running it. Servers may run on the store meanwhile. With
 * `sealing`, the context seals and opens values with the store's keyring, checked as `serve`
 * checks it.
 */
export async function onStore<T>(
  settings: string[],
  work: (ctx: Context) => Promise<T>,
  { sealing = false } = {},
): Promise<T> {
  const config = loadConfig(process.env, settings);
  // What features do in each other's writes, as a server has it (src/events/registry.ts).
  subscribeFeatures();
  const store = await openReachableStore(config);
  try {
    await store.exclusively(() => migrate(store));
    const sealer = sealing ? (await store.exclusively(() => loadKeyring(store, config))).keyring : NO_SEALER;
    const ctx: Context = {
      store,
      subject: commandLineSubject(osUser()),
      sealer,
      requestId: randomUUID(),
    };
    return await work(ctx);
  } finally {
    await store.close();
  }
}

/** `promise`, with a missing resource told as `what` (the service's NotFound says only "not found"). */
export async function orNotFound<T>(promise: Promise<T>, what: string): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof NotFound) throw new UsageError(`${what} not found`);
    throw error;
  }
}

export { everyPage };

/**
 * Runs a command to its exit code: 0 when it succeeded; 2, with one line, for input it refuses
 * (an unknown option, a setting out of range, anything the services refuse as the API would
 * with a 4xx); 1, with one line, for any other failure (the store cannot be reached).
 */
export async function finish(command: string, run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    const refused = error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`varsetd ${command}: ${message.split('\n')[0]}`);
    return refused ? 2 : 1;
  }
}

/** Rows as columns padded to their widest cell, the first row the heading. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '),
    )
    .join('\n');
}
