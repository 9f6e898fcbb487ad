import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestStore } from './helpers.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The environment of a varsetd process on `store`: nothing of varsetd's own settings leaks in from the test's. */
export function varsetdEnv(store: Pick<TestStore, 'dataDir' | 'databaseUrl'>, settings: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (/^(VARSETD_|DATABASE_URL$|HOST$|PORT$|LOG_LEVEL$)/.test(name)) delete env[name];
  return { ...env, VARSETD_DATA_DIR: store.dataDir, ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}), ...settings };
}

/** Runs `varsetd ARGS` to its end; rejects only when it cannot be started. */
export async function runVarsetd(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
